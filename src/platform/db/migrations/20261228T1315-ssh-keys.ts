import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// SSH keys (issue 37): users' keys and deploy keys in one table, as GitLab's `keys` with its `type`
// (Key | DeployKey), and the projects a deploy key is enabled on (deploy_keys_projects).
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('keys'))
    // 'Key' (a user's) | 'DeployKey'
    .addColumn('type', 'text', (c) => c.notNull())
    // The owner of a user's key; the creator of a deploy key (null once that user is deleted).
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    // `<algorithm> <base64>` as the user gave it, without options; the comment is kept apart.
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('bits', 'integer', (c) => c.notNull())
    // Colon-separated MD5 hex pairs, and the unpadded base64 SHA-256 of the key blob (no `SHA256:`).
    .addColumn('fingerprint_md5', 'text', (c) => c.notNull())
    .addColumn('fingerprint_sha256', 'text', (c) => c.notNull())
    // 'auth' | 'signing' | 'auth_and_signing'
    .addColumn('usage_type', 'text', (c) => c.notNull().defaultTo('auth_and_signing'))
    // A deploy key every project's maintainer may enable (GitLab's public deploy keys, admin-made).
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', TIME)
    .addColumn('last_used_at', TIME)
    // When the "expires soon" and "has expired" e-mails went out (GitLab's *_notification_delivered_at).
    .addColumn('before_expiry_notified_at', TIME)
    .addColumn('expiry_notified_at', TIME)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  // A key authenticates one identity: the SSH server finds it by this fingerprint.
  await db.schema.createIndex('keys_fingerprint_sha256').on('keys').column('fingerprint_sha256').unique().execute();
  await db.schema.createIndex('keys_fingerprint_md5').on('keys').column('fingerprint_md5').execute();
  await db.schema.createIndex('keys_user').on('keys').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('keys_type').on('keys').columns(['type', 'public', 'id']).execute();
  await db.schema.createIndex('keys_expires').on('keys').columns(['expires_at']).execute();

  await withId(db, db.schema.createTable('deploy_keys_projects'))
    .addColumn('deploy_key_id', 'bigint', (c) => c.notNull().references('keys.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('can_push', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deploy_keys_projects_unique').on('deploy_keys_projects').columns(['deploy_key_id', 'project_id']).unique().execute();
  await db.schema.createIndex('deploy_keys_projects_project').on('deploy_keys_projects').columns(['project_id', 'deploy_key_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
