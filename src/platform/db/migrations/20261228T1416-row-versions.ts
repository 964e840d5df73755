import { sql, type Kysely } from 'kysely';
import { isPostgres } from './_columns.js';

// A version on every project and namespace row, moved by each update whatever wrote it (a trigger,
// so psql and every code path count): the serialised Project entity is kept by the versions of the
// rows it shows (platform/http/entity-cache.ts, as GitLab's present_cached keys by cache_key), and
// needs no other invalidation. PostgreSQL sets it in the updated row itself (RETURNING shows it);
// SQLite cannot change NEW, so it writes it right after the update, in the same statement.
const TABLES = ['projects', 'namespaces'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  if (isPostgres(db)) {
    await sql`create function kiln_next_row_version() returns trigger language plpgsql as $$ begin new.version := old.version + 1; return new; end $$`.execute(db);
    for (const table of TABLES) {
      await sql`create trigger ${sql.raw(`${table}_version`)} before update on ${sql.table(table)} for each row execute function kiln_next_row_version()`.execute(db);
    }
    return;
  }
  for (const table of TABLES) {
    await sql`create trigger ${sql.raw(`${table}_version`)} after update on ${sql.table(table)} for each row when new.version = old.version
      begin update ${sql.table(table)} set version = old.version + 1 where id = old.id; end`.execute(db);
  }
}
