// Activity event listings and notification settings (issue 4). The events table is the largest one:
// every listing filter has an index that serves it in id order (GitLab's REST API documentation), so a page is an
// index range scan and the bounded count never touches rows outside the filter.
import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('events_author_action').on('events').columns(['author_id', 'action', 'id']).execute();
  await db.schema.createIndex('events_project_action').on('events').columns(['project_id', 'action', 'id']).execute();
  await db.schema.createIndex('events_author_target').on('events').columns(['author_id', 'target_type', 'id']).execute();
  await db.schema.createIndex('events_project_target').on('events').columns(['project_id', 'target_type', 'id']).execute();
  // before/after on one author: the day edges are a created_at range inside the author's events.
  await db.schema.createIndex('events_author_created').on('events').columns(['author_id', 'created_at']).execute();

  // Reading a viewer's projects per events request looks up their personal namespace by owner.
  await db.schema.createIndex('namespaces_owner').on('namespaces').columns(['owner_id', 'kind']).execute();

  // One row per (user, source): source_type 'Global' (source_id 0), 'Namespace' (a group) or 'Project'.
  // Event columns are nullable booleans as in GitLab (null = never set), except moved_project (default
  // true) and merge_when_pipeline_succeeds (default false), GitLab's REST API documentation
  let table = withId(db, db.schema.createTable('notification_settings'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'bigint', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('notification_email', 'text');
  for (const name of NULLABLE_EVENTS) table = table.addColumn(name, 'integer');
  await table
    .addColumn('moved_project', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('merge_when_pipeline_succeeds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('new_epic', 'integer')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('notification_settings_user_source', ['user_id', 'source_type', 'source_id'])
    .execute();
}

// Frozen copy (migrations never import application code).
const NULLABLE_EVENTS = [
  'new_note', 'new_issue', 'reopen_issue', 'close_issue', 'reassign_issue', 'issue_due', 'new_merge_request',
  'push_to_merge_request', 'reopen_merge_request', 'close_merge_request', 'reassign_merge_request',
  'merge_merge_request', 'failed_pipeline', 'fixed_pipeline', 'success_pipeline',
];

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
