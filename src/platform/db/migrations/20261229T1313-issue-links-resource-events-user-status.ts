import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// What clients call on issues and users (issue 38): links between issues (GitLab's issue_links),
// the state and milestone history of issues and merge requests (resource_state_events,
// resource_milestone_events) and a user's status (user_statuses).
export async function up(db: Kysely<any>): Promise<void> {
  // A link from one issue to another: `relates_to` or `blocks` (GitLab keeps "is blocked by" as the
  // reverse `blocks`). One link per pair, whichever way it points (checked by the action).
  await withId(db, db.schema.createTable('issue_links'))
    .addColumn('source_id', 'bigint', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('target_id', 'bigint', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('link_type', 'text', (c) => c.notNull().defaultTo('relates_to'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('issue_links_source_target', ['source_id', 'target_id'])
    .execute();
  await db.schema.createIndex('issue_links_target').on('issue_links').columns(['target_id', 'id']).execute();

  // Closed, reopened (and merged) issues and merge requests, in order. The user stays when deleted
  // (moved to the ghost user), as in resource_label_events.
  await withId(db, db.schema.createTable('resource_state_events'))
    .addColumn('issue_id', 'bigint', (c) => c.references('issues.id').onDelete('cascade'))
    .addColumn('merge_request_id', 'bigint', (c) => c.references('merge_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint')
    .addColumn('state', 'text', (c) => c.notNull()) // 'opened' | 'closed' | 'reopened' | 'merged'
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('resource_state_events_issue').on('resource_state_events').columns(['issue_id', 'id']).execute();
  await db.schema.createIndex('resource_state_events_merge_request').on('resource_state_events').columns(['merge_request_id', 'id']).execute();

  // A milestone set (`add`) or taken off (`remove`), with the issuable's state at the time.
  await withId(db, db.schema.createTable('resource_milestone_events'))
    .addColumn('issue_id', 'bigint', (c) => c.references('issues.id').onDelete('cascade'))
    .addColumn('merge_request_id', 'bigint', (c) => c.references('merge_requests.id').onDelete('cascade'))
    .addColumn('milestone_id', 'bigint', (c) => c.references('milestones.id').onDelete('set null'))
    .addColumn('user_id', 'bigint')
    .addColumn('action', 'text', (c) => c.notNull()) // 'add' | 'remove'
    .addColumn('state', 'text', (c) => c.notNull()) // 'opened' | 'closed' | 'merged'
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('resource_milestone_events_issue').on('resource_milestone_events').columns(['issue_id', 'id']).execute();
  await db.schema.createIndex('resource_milestone_events_merge_request').on('resource_milestone_events').columns(['merge_request_id', 'id']).execute();

  // A user's status (GitLab's user_statuses): one row per user, removed when cleared.
  await db.schema.createTable('user_statuses')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('availability', 'text', (c) => c.notNull().defaultTo('not_set')) // 'not_set' | 'busy'
    .addColumn('clear_status_at', TIME)
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
}
