import { sql, type Kysely } from 'kysely';
import { isPostgres } from './_columns.js';

// An alert's event counter in a narrow table of its own. Counting a repeated alert is the alert
// endpoint's commonest write; on the wide alert row (payload, description, hosts) each count rewrote
// the row and a page of its own per alert, where 200 counters share one page here (measured: 13 → 5
// µs per counted alert on SQLite, docs/performance.md). `alert_id` is SQLite's rowid alias.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alert_management_event_counts')
    .addColumn('alert_id', isPostgres(db) ? 'bigint' : 'integer', (c) => c.primaryKey().references('alert_management_alerts.id').onDelete('cascade'))
    .addColumn('events', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into alert_management_event_counts (alert_id, events) select id, events from alert_management_alerts`.execute(db);
  await db.schema.alterTable('alert_management_alerts').dropColumn('events').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
