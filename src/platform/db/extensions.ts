// PostgreSQL extensions Kiln's schema uses. An extension is one per database, whichever schema Kiln's
// tables are in (a search_path of its own schema, as the tests use, or `public`): it is created once in
// `public` unless installed already, under a lock so that two instances migrating at once do not both
// create it. The migration that first needs it calls this, and so does a restore into a new database
// (a dump of one schema does not carry the database's extensions).
import { sql, type Kysely } from 'kysely';

/** Makes sure pg_trgm is installed; answers the schema it is in (its operator classes are named with it). */
export async function ensurePgTrgm(db: Kysely<any>): Promise<string> {
  await sql`select pg_advisory_xact_lock(hashtext('kiln:pg_trgm'))`.execute(db);
  const installed = async () => (await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)).rows[0]?.schema;
  if (!(await installed())) await sql`create extension pg_trgm with schema public`.execute(db);
  return String(await installed());
}
