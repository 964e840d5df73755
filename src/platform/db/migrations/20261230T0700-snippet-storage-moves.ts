import { sql, type Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Snippet repository storage moves (GitLab's snippet_repository_storage_moves): the same columns as a
// group's, keyed by the snippet; and the snippet's read-only flag that a move sets while it copies
// (GitLab's snippets.repository_read_only).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('snippets').addColumn('repository_read_only', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await withId(db, db.schema.createTable('snippet_repository_storage_moves'))
    .addColumn('snippet_id', 'bigint', (c) => c.notNull().references('snippets.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source_storage_name', 'text', (c) => c.notNull())
    .addColumn('destination_storage_name', 'text', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snippet_moves_created').on('snippet_repository_storage_moves').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('snippet_moves_snippet').on('snippet_repository_storage_moves').columns(['snippet_id', 'created_at', 'id']).execute();
  // One unfinished move per snippet, enforced by the database.
  await db.schema
    .createIndex('snippet_moves_one_unfinished')
    .on('snippet_repository_storage_moves')
    .column('snippet_id')
    .unique()
    .where(sql<boolean>`state in ('initial', 'scheduled', 'started', 'replicated')`)
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
