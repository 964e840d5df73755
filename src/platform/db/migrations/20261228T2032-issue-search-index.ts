import { sql, type Kysely } from 'kysely';
import { isPostgres } from './_columns.js';
import { ensurePgTrgm } from '../extensions.js';

// Issue search (issue 40, growth): `search=` on the issue listings and `GET /search?scope=issues` look for
// the text anywhere in the title or the description (`lower(column) like '%text%'`), which no B-tree
// can answer: every issue the caller may read was read and matched (1.4 s at 10⁵ issues). A trigram index
// finds the candidates: PostgreSQL's pg_trgm answers that LIKE itself (as GitLab's trigram indexes on
// issues' title and description do); SQLite's FTS5 trigram tokenizer keeps a table of the issues' trigrams
// that the listing asks first, then checks its LIKE on those rows only (issue-search-queries.ts). The FTS
// table holds no copy of the text (contentless, deletes allowed): triggers keep it in step with every
// write of `issues`, whichever code writes.
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    // The operator class is named with the schema the extension is in (extensions.ts).
    const opclass = sql`${sql.id(await ensurePgTrgm(db))}.gin_trgm_ops`;
    await sql`create index issues_title_trigram on issues using gin (lower(title) ${opclass})`.execute(db);
    await sql`create index issues_description_trigram on issues using gin (lower(description) ${opclass})`.execute(db);
    return;
  }
  await sql`create virtual table issues_search using fts5(title, description, content='', contentless_delete=1, tokenize='trigram')`.execute(db);
  await sql`insert into issues_search (rowid, title, description) select id, title, coalesce(description, '') from issues`.execute(db);
  await sql`create trigger issues_search_insert after insert on issues begin
      insert into issues_search (rowid, title, description) values (new.id, new.title, coalesce(new.description, ''));
    end`.execute(db);
  await sql`create trigger issues_search_update after update of title, description on issues begin
      delete from issues_search where rowid = old.id;
      insert into issues_search (rowid, title, description) values (new.id, new.title, coalesce(new.description, ''));
    end`.execute(db);
  await sql`create trigger issues_search_delete after delete on issues begin
      delete from issues_search where rowid = old.id;
    end`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
