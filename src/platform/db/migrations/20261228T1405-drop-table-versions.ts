import { sql, type Kysely } from 'kysely';
import { isPostgres } from './_columns.js';

// The per-table versions (20261127T0900-table-versions) served the whole-answer read caches, which
// are gone: what is cached now is invalidated by the writes themselves (platform/db/reads.ts) or
// keyed by the version a row carries. Their table, and on PostgreSQL the trigger on every table and
// the functions behind it, go.
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`
      do $$
      declare
        tracked text;
      begin
        for tracked in
          select c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and t.tgname = 'kiln_table_version'
        loop
          execute format('drop trigger kiln_table_version on %I', tracked);
        end loop;
      end $$`.execute(db);
    await db.schema.dropTable('table_version_commits').ifExists().execute();
    await sql`drop function if exists kiln_track_table_versions()`.execute(db);
    await sql`drop function if exists kiln_bump_table_versions()`.execute(db);
    await sql`drop function if exists kiln_note_table_write()`.execute(db);
  }
  await db.schema.dropTable('table_versions').ifExists().execute();
}
