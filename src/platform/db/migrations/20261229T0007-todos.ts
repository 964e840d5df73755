import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// To-do items (issue 36; GitLab's `todos`): one row per user and reason a target (an issue or a merge
// request) asks for their attention — assigned, mentioned, directly addressed, review requested,
// marked — pending until done. The target is polymorphic (`target_type`, `target_id`) as GitLab's;
// listings join it and re-check that its reader may still see it, so a target deleted or hidden
// later simply drops out. The action is stored by GitLab's name (`action_name` on the wire).
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('todos'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('author_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    // The comment that mentioned the user (its text is the to-do's body); null: the target's title.
    .addColumn('note_id', 'bigint', (c) => c.references('notes.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  // A user's list and its count, newest first, by state.
  await db.schema.createIndex('todos_user_state').on('todos').columns(['user_id', 'state', 'id']).execute();
  // Resolving a target's pending to-dos when it closes or merges, or when its reader acts on it.
  await db.schema.createIndex('todos_target').on('todos').columns(['target_type', 'target_id', 'state', 'user_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
