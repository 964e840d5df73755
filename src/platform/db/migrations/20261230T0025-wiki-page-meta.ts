import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Wiki page meta records (issue 38; GitLab's wiki_page_meta): one id per page of a project's wiki,
// the target of the page's activity events (target_type WikiPage::Meta). Found by the page's current
// slug, which a rename through the API or the pages moves; `removed` once the page was deleted.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('wiki_page_meta'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wiki_page_meta_project_slug').unique().on('wiki_page_meta').columns(['project_id', 'slug']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
