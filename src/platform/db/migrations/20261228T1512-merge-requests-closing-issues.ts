import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

// The issues a merge request closes when it merges into its project's default branch (GitLab's
// merge_requests_closing_issues): kept in step with its title, description and commits, read by
// `…/closes_issues`, `GET /issues/:iid/closed_by` and the merge.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('merge_requests_closing_issues')
    .addColumn('merge_request_id', 'bigint', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
    .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addPrimaryKeyConstraint('merge_requests_closing_issues_pk', ['merge_request_id', 'issue_id'])
    .execute();
  await db.schema.createIndex('merge_requests_closing_issues_issue').on('merge_requests_closing_issues').columns(['issue_id', 'merge_request_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
