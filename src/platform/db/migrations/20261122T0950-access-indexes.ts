import type { Kysely } from 'kysely';

// An index for the per-request access queries (measured with EXPLAIN QUERY PLAN on the bench data):
// without it SQLite looked up a user's memberships through the (source_type, source_id, user_id)
// unique index on source_type alone. (The personal-namespace owner lookup is served by
// `namespaces_owner`, created by 20261122T1100-events-notifications.)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('members_user_source').on('members').columns(['user_id', 'source_type', 'source_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
