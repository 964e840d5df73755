import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Review of merge requests (issue 34): diff notes, resolvable threads, suggestions, draft notes and
// award emoji.
//
// A diff note is a row of `notes` with type 'DiffNote' and its position (GitLab's DiffNote): the
// position as the diff shows it now (`position`, moved forward by each push that leaves its line
// alone), as it was made (`original_position`) and, once a push changed its line, where that change
// is (`change_position`); all three are GitLab's position JSON. Thread notes (DiscussionNote and
// DiffNote) are resolvable: resolved_at/resolved_by_id, and resolved_by_push when a push resolved
// an outdated one (resolve_outdated_diff_discussions).
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['position', 'original_position', 'change_position', 'line_code', 'commit_id']) {
    await db.schema.alterTable('notes').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('notes').addColumn('resolved_at', TIME).execute();
  await db.schema.alterTable('notes').addColumn('resolved_by_id', 'bigint').execute();
  await db.schema.alterTable('notes').addColumn('resolved_by_push', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // The diff version a DiffNote's position was last traced to (trace-positions): its thread is current
  // while its position's SHAs are that version's, outdated once a later version changed its line.
  await db.schema.alterTable('notes').addColumn('traced_to_diff_id', 'bigint').execute();

  // A ```suggestion block of a diff note (GitLab's suggestions): the lines it replaces in the new
  // file (from_content, `lines_above`/`lines_below` around the note's line) and their replacement.
  await withId(db, db.schema.createTable('suggestions'))
    .addColumn('note_id', 'bigint', (c) => c.notNull().references('notes.id').onDelete('cascade'))
    .addColumn('relative_order', 'integer', (c) => c.notNull())
    .addColumn('from_content', 'text', (c) => c.notNull())
    .addColumn('to_content', 'text', (c) => c.notNull())
    .addColumn('lines_above', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lines_below', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('outdated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('applied', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('commit_id', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('suggestions_note_order', ['note_id', 'relative_order'])
    .execute();

  // A review in progress (GitLab's draft_notes): seen only by its author until published at once.
  await withId(db, db.schema.createTable('draft_notes'))
    .addColumn('merge_request_id', 'bigint', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
    .addColumn('author_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('note', 'text', (c) => c.notNull())
    // The thread it answers (in_reply_to_discussion_id), null for a new one.
    .addColumn('discussion_id', 'text')
    .addColumn('commit_id', 'text')
    .addColumn('position', 'text')
    .addColumn('line_code', 'text')
    .addColumn('resolve_discussion', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('draft_notes_author').on('draft_notes').columns(['merge_request_id', 'author_id', 'id']).execute();

  // Award emoji on issues, merge requests and notes (GitLab's award_emoji, polymorphic): one per
  // user, name and awardable, held by the unique index so a double click awards once.
  await withId(db, db.schema.createTable('award_emoji'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('awardable_type', 'text', (c) => c.notNull()) // Issue | MergeRequest | Note
    .addColumn('awardable_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('award_emoji_one_per_user', ['awardable_type', 'awardable_id', 'name', 'user_id'])
    .execute();
  await db.schema.createIndex('award_emoji_user').on('award_emoji').columns(['user_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
