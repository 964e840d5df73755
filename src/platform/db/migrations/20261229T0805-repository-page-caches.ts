import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// What the repository pages compute once per commit and keep (issue 35, docs/decisions.md): the last
// commit of every entry of a directory (`kind` 'tree', `path` the directory, '' for the root) and the
// blame of a file (`kind` 'blame', `path` the file), at `commit_sha`. Written by the job a push to the
// default branch enqueues, and by a page that found nothing kept. An answer at a commit never changes,
// so a row is never updated, only inserted once and deleted when the project keeps too many.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('repository_page_caches'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('commit_sha', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    // JSON: tree {latest, commits, entries: [name, index into commits][]}; blame {commits, ranges: [index, lines][]}.
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('repository_page_caches_key').on('repository_page_caches').columns(['project_id', 'commit_sha', 'kind', 'path']).unique().execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
