import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Snippets (issue 38; GitLab's snippets table with its PersonalSnippet and ProjectSnippet kinds): a
// personal snippet has no project, a project snippet belongs to one. Each keeps up to ten files, their
// text in snippet_files (docs/decisions.md: in the database, not in a snippet repository), unique by
// path within the snippet. The creating request's user agent and address are kept for administrators
// (GitLab's user_agent_details).
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('snippets'))
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('author_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snippets_author').on('snippets').columns(['author_id', 'id']).execute();
  await db.schema.createIndex('snippets_project').on('snippets').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('snippets_visibility').on('snippets').columns(['visibility', 'id']).execute();

  await withId(db, db.schema.createTable('snippet_files'))
    .addColumn('snippet_id', 'bigint', (c) => c.notNull().references('snippets.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snippet_files_path').on('snippet_files').columns(['snippet_id', 'path']).unique().execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
