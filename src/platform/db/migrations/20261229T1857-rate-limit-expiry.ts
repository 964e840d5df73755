import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { TIME } from './_columns.js';

// When a rate-limit row stops mattering (its window's end, or a git ban's), so housekeeping prunes
// exactly the expired ones through an index, whatever the window's length: a throttle's period is an
// administrator's setting and may be longer than the day housekeeping used to keep every row.
// Rows from before keep that day.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rate_limits').addColumn('expires_at', TIME, (c) => c.notNull().defaultTo(0)).execute();
  await sql`update rate_limits set expires_at = window_start + ${24 * 3600_000}`.execute(db);
  await db.schema.createIndex('rate_limits_expires_at').on('rate_limits').columns(['expires_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
