import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Issue boards (issue 36; GitLab's boards and lists tables). A board belongs to a project or to a
// group. Only label lists are rows: the Open and Closed lists every board shows are not stored (they
// have no label and no position, and the API never lists them); `hide_backlog_list` and
// `hide_closed_list` say whether the page shows them. One list per label on a board.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('boards'))
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('hide_backlog_list', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hide_closed_list', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('boards_project').on('boards').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('boards_group').on('boards').columns(['group_id', 'id']).execute();

  await withId(db, db.schema.createTable('board_lists'))
    .addColumn('board_id', 'bigint', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('label_id', 'bigint', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('board_lists_board_label').on('board_lists').columns(['board_id', 'label_id']).unique().execute();
  await db.schema.createIndex('board_lists_board_position').on('board_lists').columns(['board_id', 'position']).execute();
  await db.schema.createIndex('board_lists_label').on('board_lists').column('label_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
