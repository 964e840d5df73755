import type { Kysely } from 'kysely';

// A repeated recovery looks up resolved alerts of a fingerprint; without this index that lookup
// scans every resolved alert of the project.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('alerts_fingerprint_history').on('alert_management_alerts').columns(['project_id', 'fingerprint', 'ended_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
