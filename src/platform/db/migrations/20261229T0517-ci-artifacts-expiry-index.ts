import type { Kysely } from 'kysely';

// The daily expiry job (ci/jobs/expire-artifacts.ts) finds artifacts whose `expire_at` has passed:
// without an index that is a scan of every artifact row, and on SQLite the rows carry the stored file.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('ci_job_artifacts_expire_at').on('ci_job_artifacts').column('expire_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
