import { sql, type Kysely } from 'kysely';
import { isPostgres } from './_columns.js';

// Webhooks fire Merge Request Hooks (issue 34): merge_requests_events becomes a column the listeners
// filter on, as every fired flag is, taken from the stored flags where a hook already set it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('web_hooks').addColumn('merge_requests_events', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  const stored = isPostgres(db)
    ? sql`case when (flags::json ->> 'merge_requests_events') = 'true' then 1 else 0 end`
    : sql`case when json_extract(flags, '$.merge_requests_events') = 1 then 1 else 0 end`;
  await sql`update web_hooks set merge_requests_events = ${stored}`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
