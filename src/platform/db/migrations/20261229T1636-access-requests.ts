import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Access requests (issue 36; GitLab's members with requested_at): a user asking to join a group or
// project. Kept apart from members so that no membership query has to skip them: a request grants
// nothing until a Maintainer (project) or Owner (group) approves it, which turns it into a member.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('access_requests'))
    .addColumn('source_type', 'text', (c) => c.notNull()) // 'Namespace' | 'Project'
    .addColumn('source_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('requested_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('access_requests_source_user', ['source_type', 'source_id', 'user_id'])
    .execute();
  await db.schema.createIndex('access_requests_user').on('access_requests').columns(['user_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
