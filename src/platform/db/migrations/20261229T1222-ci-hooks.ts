import { sql, type Kysely } from 'kysely';
import { isPostgres } from './_columns.js';

// Pipeline and Job Hooks (issue 39): pipeline_events and job_events become columns the webhook
// listeners filter on, taken from the flags stored until now.
export async function up(db: Kysely<any>): Promise<void> {
  for (const flag of ['pipeline_events', 'job_events']) {
    await db.schema.alterTable('web_hooks').addColumn(flag, 'integer', (c) => c.notNull().defaultTo(0)).execute();
    const stored = isPostgres(db)
      ? sql`case when (flags::json ->> ${flag}) = 'true' then 1 else 0 end`
      : sql`case when json_extract(flags, ${`$.${flag}`}) = 1 then 1 else 0 end`;
    await sql`update web_hooks set ${sql.ref(flag)} = ${stored}`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
