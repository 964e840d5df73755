import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// A commit that has been commented on, as a row the notes machinery can key its notes by
// (notes.noteable_type 'Commit', notes.noteable_id this id; notes.commit_id keeps the sha as GitLab's
// do). One row per project and sha, decided by the unique constraint when two comments race.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('commit_noteables'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('commit_sha', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('commit_noteables_project_sha', ['project_id', 'commit_sha'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
