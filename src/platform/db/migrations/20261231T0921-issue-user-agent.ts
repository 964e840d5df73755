import type { Kysely } from 'kysely';

// An issue keeps the User-Agent and address of the request that created it (issue 38; GitLab's
// user_agent_details of an issue, shown to administrators at …/issues/:iid/user_agent_detail), in
// the same columns snippets keep theirs in. Null for issues made without a request (an alert's
// incident) and for those created before.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('issues').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('issues').addColumn('ip_address', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
