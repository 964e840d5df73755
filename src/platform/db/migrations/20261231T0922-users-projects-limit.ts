import type { Kysely } from 'kysely';

// Each user's personal project limit (issue 38; GitLab's users.projects_limit): how many projects their
// personal namespace may hold, 0 for none. New users get the instance's default_projects_limit;
// existing ones GitLab's default of that setting.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('projects_limit', 'bigint', (c) => c.notNull().defaultTo(100_000)).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
