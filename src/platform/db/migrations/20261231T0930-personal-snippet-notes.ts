import { sql, type Kysely } from 'kysely';
import { isPostgres } from './_columns.js';

// Comments on personal snippets (GitLab's notes of a PersonalSnippet have no project): notes.project_id
// becomes nullable.
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema.alterTable('notes').alterColumn('project_id', (c) => c.dropNotNull()).execute();
    return;
  }
  // SQLite cannot drop a NOT NULL: the table is made again from its own definition with the one
  // constraint removed, its rows copied with their ids, its indexes, triggers and AUTOINCREMENT
  // counter kept. `suggestions` and `todos` reference notes with ON DELETE CASCADE: dropping the old
  // table with foreign keys on would delete their rows, so they are off for the rebuild (SQLite's
  // "making other kinds of table schema changes" procedure), which runs in one transaction.
  const [table] = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'notes'`.execute(db)).rows;
  const constraint = '"project_id" bigint not null references';
  if (!table || !table.sql.includes(constraint)) throw new Error('notes.project_id is not the NOT NULL column this migration expects');
  const definition = table.sql.replace(constraint, '"project_id" bigint references').replace(/^CREATE TABLE "notes"/, 'CREATE TABLE "notes_next"');
  if (!definition.startsWith('CREATE TABLE "notes_next"')) throw new Error('unexpected definition of notes');
  const dependents = (await sql<{ sql: string }>`select sql from sqlite_master where tbl_name = 'notes' and type in ('index', 'trigger') and sql is not null`.execute(db)).rows;
  // Foreign keys already broken (rows a past bug left) are not this migration's to mend: only new ones fail it.
  const broken = async (executor: Kysely<any>) => {
    let count = 0;
    for (const name of ['notes', 'suggestions', 'todos']) count += (await sql.raw(`pragma foreign_key_check(${name})`).execute(executor)).rows.length;
    return count;
  };
  const brokenBefore = await broken(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      const [sequence] = (await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'notes'`.execute(trx)).rows;
      await sql`drop table if exists notes_next`.execute(trx);
      await sql.raw(definition).execute(trx);
      await sql`insert into notes_next select * from notes`.execute(trx);
      await sql`drop table notes`.execute(trx);
      await sql`alter table notes_next rename to notes`.execute(trx);
      for (const dependent of dependents) await sql.raw(dependent.sql).execute(trx);
      if (sequence) await sql`update sqlite_sequence set seq = ${sql.lit(Math.trunc(Number(sequence.seq)))} where name = 'notes'`.execute(trx);
      if ((await broken(trx)) > brokenBefore) throw new Error('the rebuilt notes table breaks foreign keys');
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
