import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { TIME, withId } from './_columns.js';

// Time tracking of issues (issue 34; GitLab's timelogs and issues.time_estimate): an issue's estimate
// beside the merge requests' one, and every entry of spent time of an issue or a merge request. The
// total spent is the sum of the entries (negative ones subtract; a reset adds the negated total), so
// two processes adding time at once both count. Exactly one of issue_id and merge_request_id is set.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('issues').addColumn('time_estimate', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await withId(db, db.schema.createTable('timelogs'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('issue_id', 'bigint', (c) => c.references('issues.id').onDelete('cascade'))
    .addColumn('merge_request_id', 'bigint', (c) => c.references('merge_requests.id').onDelete('cascade'))
    .addColumn('time_spent', 'integer', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('spent_at', TIME, (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addCheckConstraint('timelogs_one_noteable', sql`(issue_id is null) <> (merge_request_id is null)`)
    .execute();
  await db.schema.createIndex('timelogs_issue').on('timelogs').columns(['issue_id']).execute();
  await db.schema.createIndex('timelogs_merge_request').on('timelogs').columns(['merge_request_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
