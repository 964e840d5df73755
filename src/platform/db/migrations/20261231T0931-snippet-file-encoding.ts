import type { Kysely } from 'kysely';

// A snippet's file may be binary (issue 38; GitLab takes any file pushed to a snippet's repository):
// `encoding` says how `content` holds it — `text` as it is, `base64` for a file that is not UTF-8
// text or holds a NUL byte (its bytes, base64-encoded). Every file before this one is text.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('snippet_files').addColumn('encoding', 'text', (c) => c.notNull().defaultTo('text')).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
