import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Outgoing events (issue 18): webhooks of a project, a group or the instance (GitLab's web_hooks with
// its `type`), their recent deliveries (web_hook_logs, kept 7 days) and chat integrations (Slack).
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('web_hooks'))
    // 'ProjectHook' | 'GroupHook' | 'SystemHook'
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    // Sealed with the instance's secret box; never answered by the API.
    .addColumn('token', 'text')
    // Every event flag, GitLab's names, as a JSON object of booleans (the ones Kiln fires are also columns below).
    .addColumn('flags', 'text', (c) => c.notNull())
    .addColumn('push_events', 'integer', (c) => c.notNull())
    .addColumn('tag_push_events', 'integer', (c) => c.notNull())
    .addColumn('issues_events', 'integer', (c) => c.notNull())
    .addColumn('confidential_issues_events', 'integer', (c) => c.notNull())
    .addColumn('note_events', 'integer', (c) => c.notNull())
    .addColumn('confidential_note_events', 'integer', (c) => c.notNull())
    .addColumn('deployment_events', 'integer', (c) => c.notNull())
    .addColumn('alert_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('repository_update_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('push_events_branch_filter', 'text')
    .addColumn('branch_filter_strategy', 'text', (c) => c.notNull().defaultTo('wildcard'))
    .addColumn('enable_ssl_verification', 'integer', (c) => c.notNull().defaultTo(1))
    // GitLab's auto-disabling: consecutive failures, backoffs taken, and the end of the current one.
    .addColumn('recent_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backoff_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_until', TIME)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_hooks_project').on('web_hooks').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('web_hooks_group').on('web_hooks').columns(['group_id', 'id']).execute();
  await db.schema.createIndex('web_hooks_type').on('web_hooks').columns(['type', 'id']).execute();

  await withId(db, db.schema.createTable('web_hook_logs'))
    .addColumn('web_hook_id', 'bigint', (c) => c.notNull().references('web_hooks.id').onDelete('cascade'))
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('request_headers', 'text', (c) => c.notNull())
    .addColumn('request_data', 'text', (c) => c.notNull())
    .addColumn('response_headers', 'text', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    // HTTP status as text, or GitLab's 'internal error' when no response came.
    .addColumn('response_status', 'text', (c) => c.notNull())
    .addColumn('execution_duration', 'real', (c) => c.notNull())
    .addColumn('internal_error_message', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_hook_logs_hook').on('web_hook_logs').columns(['web_hook_id', 'id']).execute();
  await db.schema.createIndex('web_hook_logs_created').on('web_hook_logs').column('created_at').execute();

  // A chat integration of a project (GitLab's integrations row with its properties).
  await withId(db, db.schema.createTable('chat_integrations'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // 'slack' | 'mattermost'
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    // Sealed webhook URL (it is a credential).
    .addColumn('webhook', 'text', (c) => c.notNull())
    // Every other property as JSON: username, channel, event flags, per-event channels.
    .addColumn('properties', 'text', (c) => c.notNull())
    .addColumn('alert_events', 'integer', (c) => c.notNull())
    .addColumn('issues_events', 'integer', (c) => c.notNull())
    .addColumn('confidential_issues_events', 'integer', (c) => c.notNull())
    .addColumn('note_events', 'integer', (c) => c.notNull())
    .addColumn('confidential_note_events', 'integer', (c) => c.notNull())
    .addColumn('push_events', 'integer', (c) => c.notNull())
    .addColumn('tag_push_events', 'integer', (c) => c.notNull())
    .addColumn('deployment_events', 'integer', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('chat_integrations_project_kind', ['project_id', 'kind'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
