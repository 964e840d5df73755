import { sql, type Kysely } from 'kysely';

// Which runners take a project's jobs (GitLab's shared_runners_enabled and group_runners_enabled): a
// copy of the two flags of the project's `settings` JSON in columns of their own, 1 unless the
// settings say false, written with the settings (accounts/runner-flags.ts). The job claim
// (ci/runners/claim-job.ts) is the runners' hot path: with the columns it excludes the projects that
// turned a kind of runner off by an index holding only those (almost always none), where a test of the
// JSON would parse every project's settings at every claim, and in two SQL dialects. Projects that
// set a flag already take it here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('shared_runners_enabled', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('projects').addColumn('group_runners_enabled', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await sql`create index projects_shared_runners_disabled on projects (id) where shared_runners_enabled = 0`.execute(db);
  await sql`create index projects_group_runners_disabled on projects (id) where group_runners_enabled = 0`.execute(db);
  const rows = await db.selectFrom('projects').select(['id', 'settings']).where('settings', 'like', '%runners_enabled%').execute();
  for (const row of rows) {
    let stored: Record<string, unknown>;
    try {
      stored = JSON.parse(row.settings as string) as Record<string, unknown>;
    } catch {
      continue;
    }
    const flags = { shared_runners_enabled: stored.shared_runners_enabled === false ? 0 : 1, group_runners_enabled: stored.group_runners_enabled === false ? 0 : 1 };
    if (flags.shared_runners_enabled === 0 || flags.group_runners_enabled === 0) await db.updateTable('projects').set(flags).where('id', '=', row.id).execute();
  }
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
