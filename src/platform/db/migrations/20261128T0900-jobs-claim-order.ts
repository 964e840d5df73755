import type { Kysely } from 'kysely';

// The job claim (platform/jobs/jobs-queries.ts) walks the due jobs of a state in claim order, run_at
// then id, and stops at the first. With `id` in the index PostgreSQL reads that order from it as
// SQLite already did (there `id` is the rowid every index ends with); the old index is covered.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['state', 'run_at', 'id']).execute();
  await db.schema.dropIndex('jobs_ready').execute();
}
