import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Broadcast messages (issue 36; GitLab's broadcast_messages): a Markdown message shown to everyone
// between starts_at and ends_at, as a banner or a notification, optionally only under a path and to
// members of some roles. message_html is the sanitised rendering kept with it, so pages do not render
// Markdown for each visitor. Target access levels are JSON (a short list of integers).
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('broadcast_messages'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('message_html', 'text', (c) => c.notNull())
    .addColumn('starts_at', TIME, (c) => c.notNull())
    .addColumn('ends_at', TIME, (c) => c.notNull())
    .addColumn('color', 'text')
    .addColumn('font', 'text')
    .addColumn('theme', 'text', (c) => c.notNull())
    .addColumn('broadcast_type', 'text', (c) => c.notNull())
    .addColumn('dismissable', 'integer', (c) => c.notNull())
    .addColumn('target_path', 'text', (c) => c.notNull())
    .addColumn('target_access_levels', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('broadcast_messages_ends_at').on('broadcast_messages').columns(['ends_at', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
