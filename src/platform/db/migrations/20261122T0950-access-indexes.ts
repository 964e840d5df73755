import type { Kysely } from 'kysely';

// Indexes for the per-request access queries (measured with EXPLAIN QUERY PLAN on the bench data):
// without them SQLite looked up a user's memberships through the (source_type, source_id, user_id)
// unique index on source_type alone, and scanned namespaces for a personal namespace's owner.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('members_user_source').on('members').columns(['user_id', 'source_type', 'source_id']).execute();
  await db.schema.createIndex('namespaces_owner').on('namespaces').columns(['owner_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
