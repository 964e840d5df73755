import { sql, type Kysely } from 'kysely';
import { isPostgres } from './_columns.js';

// Per-table versions for the read caches of every process and node (issue 20; docs/decisions.md,
// "Table versions"). One row per table, bumped in the same transaction as every write to the table,
// so a cache elsewhere drops only what read the tables that changed. The row '*' is the schema: a
// migration or a write whose target is unknown bumps it, and every cached answer depends on it.
//
// SQLite: Kiln's connection bumps the rows itself, once per commit, for the tables it wrote
// (table-versions.ts; SQLite has no statement-level triggers, and a row trigger would add a write per
// row on the alert hot path). PostgreSQL: triggers, so that every path bumps (psql included). A
// statement trigger only notes the table in the transaction (a setting, no lock); a deferred
// constraint trigger bumps them all at commit, in name order: a bump taken at the write would hold
// the table's version row locked until the commit, and two transactions writing two tables in
// opposite orders would deadlock on those rows.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('table_versions')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.insertInto('table_versions').values({ name: '*', version: 0 }).onConflict((c) => c.column('name').doNothing()).execute();
  if (!isPostgres(db)) return;
  // Its few rows are updated by every writing transaction and read by every request: pages mostly
  // empty keep the updates HOT and pruned in place (measured: 24 KB after 12,000 bumps, against
  // 170 KB and growing until autovacuum at the default fill).
  await sql`alter table table_versions set (fillfactor = 10)`.execute(db);

  // One row per transaction that wrote a table and has not committed yet: its insert queues the
  // deferred bump, which deletes it.
  await db.schema.createTable('table_version_commits').addColumn('id', 'bigserial', (c) => c.primaryKey()).execute();

  await sql`
    create function kiln_note_table_write() returns trigger language plpgsql as $$
    declare
      written text := coalesce(current_setting('kiln.written_tables', true), '');
    begin
      if written = '' then
        insert into table_version_commits default values;
      end if;
      if position(',' || TG_TABLE_NAME || ',' in ',' || written) = 0 then
        perform set_config('kiln.written_tables', written || TG_TABLE_NAME || ',', true);
      end if;
      return null;
    end $$`.execute(db);

  await sql`
    create function kiln_bump_table_versions() returns trigger language plpgsql as $$
    declare
      written text[] := string_to_array(rtrim(coalesce(current_setting('kiln.written_tables', true), ''), ','), ',');
    begin
      perform set_config('kiln.written_tables', '', true);
      delete from table_version_commits where id = NEW.id;
      if coalesce(array_length(written, 1), 0) = 0 then
        return null;
      end if;
      -- Locked in name order, so that two committing transactions never wait for each other in a cycle.
      perform 1 from table_versions where name = any(written) order by name for update;
      update table_versions set version = version + 1 where name = any(written);
      return null;
    end $$`.execute(db);

  await sql`
    create constraint trigger kiln_bump_table_versions after insert on table_version_commits
    deferrable initially deferred for each row execute function kiln_bump_table_versions()`.execute(db);

  // Every table of the schema gets the statement trigger and a version row; migrate.ts calls this
  // after every migration run, so a table a later migration creates is tracked too.
  await sql`
    create function kiln_track_table_versions() returns void language plpgsql as $$
    declare
      tracked text;
    begin
      for tracked in
        select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind = 'r'
          and c.relname not in ('table_versions', 'table_version_commits', 'kysely_migration', 'kysely_migration_lock')
          and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'kiln_table_version')
      loop
        execute format('create trigger kiln_table_version after insert or update or delete or truncate on %I for each statement execute function kiln_note_table_write()', tracked);
        insert into table_versions (name, version) values (tracked, 0) on conflict (name) do nothing;
      end loop;
    end $$`.execute(db);
  await sql`select kiln_track_table_versions()`.execute(db);
}
