import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('users'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_lower', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_lower', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text')
    .addColumn('otp_secret_sealed', 'text')
    .addColumn('otp_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('otp_backup_codes', 'text')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', TIME)
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('public_email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('website_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('organization', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('private_profile', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();

  // Users and groups share one namespace id space, as in GitLab; a group's id is its namespace id.
  await withId(db, db.schema.createTable('namespaces'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('full_path', 'text', (c) => c.notNull())
    .addColumn('full_path_lower', 'text', (c) => c.notNull().unique())
    .addColumn('parent_id', 'bigint', (c) => c.references('namespaces.id'))
    .addColumn('owner_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('namespaces_parent').on('namespaces').columns(['parent_id']).execute();

  await withId(db, db.schema.createTable('projects'))
    .addColumn('namespace_id', 'bigint', (c) => c.notNull().references('namespaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('full_path', 'text', (c) => c.notNull())
    .addColumn('full_path_lower', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
    .addColumn('creator_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('default_branch', 'text', (c) => c.notNull().defaultTo('main'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addColumn('last_activity_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_namespace').on('projects').columns(['namespace_id', 'id']).execute();
  await db.schema.createIndex('projects_visibility').on('projects').columns(['visibility', 'id']).execute();

  await withId(db, db.schema.createTable('members'))
    .addColumn('source_type', 'text', (c) => c.notNull()) // 'Namespace' | 'Project'
    .addColumn('source_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('access_level', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text') // YYYY-MM-DD, as GitLab's API speaks it
    .addColumn('created_by_id', 'bigint')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('members_source_user', ['source_type', 'source_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_user').on('members').columns(['user_id', 'source_type']).execute();

  await withId(db, db.schema.createTable('personal_access_tokens'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_at', TIME)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pat_user').on('personal_access_tokens').columns(['user_id', 'id']).execute();

  // Per-project counters for iids, incremented inside the transaction that uses the value.
  await db.schema
    .createTable('internal_ids')
    .addColumn('project_id', 'bigint', (c) => c.notNull())
    .addColumn('usage', 'text', (c) => c.notNull())
    .addColumn('last_value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('internal_ids_pk', ['project_id', 'usage'])
    .execute();

  await withId(db, db.schema.createTable('issues'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('opened'))
    .addColumn('issue_type', 'text', (c) => c.notNull().defaultTo('issue'))
    .addColumn('confidential', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('author_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('closed_by_id', 'bigint')
    .addColumn('closed_at', TIME)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('issues_project_iid', ['project_id', 'iid'])
    .execute();
  await db.schema.createIndex('issues_project_id').on('issues').columns(['project_id', 'id']).execute();

  await withId(db, db.schema.createTable('notes'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('noteable_type', 'text', (c) => c.notNull())
    .addColumn('noteable_id', 'bigint', (c) => c.notNull())
    .addColumn('author_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('system', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notes_noteable').on('notes').columns(['noteable_type', 'noteable_id', 'id']).execute();

  await withId(db, db.schema.createTable('events'))
    .addColumn('project_id', 'bigint')
    .addColumn('author_id', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'bigint')
    .addColumn('target_iid', 'integer')
    .addColumn('target_title', 'text')
    .addColumn('push_data', 'text') // JSON, push events only
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_author').on('events').columns(['author_id', 'id']).execute();
  await db.schema.createIndex('events_project').on('events').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('events_created').on('events').columns(['created_at']).execute();

  await withId(db, db.schema.createTable('jobs'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull()) // queued | running | done | dead
    .addColumn('run_at', TIME, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('lease_until', TIME)
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_ready').on('jobs').columns(['state', 'run_at']).execute();

  // Fixed-window counters for rate limits, shared by every node through the database.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', TIME, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
