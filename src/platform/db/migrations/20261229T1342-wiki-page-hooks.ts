import { sql, type Kysely } from 'kysely';
import { isPostgres } from './_columns.js';

// Wiki Page Hooks (issue 38): wiki_page_events becomes a column the webhook listeners filter on,
// taken from the flag stored until now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('web_hooks').addColumn('wiki_page_events', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  const stored = isPostgres(db)
    ? sql`case when (flags::json ->> 'wiki_page_events') = 'true' then 1 else 0 end`
    : sql`case when json_extract(flags, '$.wiki_page_events') = 1 then 1 else 0 end`;
  await sql`update web_hooks set wiki_page_events = ${stored}`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
