import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('oauth_applications'))
    .addColumn('uid', 'text', (c) => c.notNull().unique())
    .addColumn('secret_digest', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('confidential', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('trusted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('owner_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_applications_owner').on('oauth_applications').columns(['owner_id', 'id']).execute();

  await withId(db, db.schema.createTable('oauth_access_grants'))
    .addColumn('application_id', 'bigint', (c) => c.notNull().references('oauth_applications.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_digest', 'text', (c) => c.notNull().unique())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('code_challenge_method', 'text')
    .addColumn('nonce', 'text')
    .addColumn('expires_at', TIME, (c) => c.notNull())
    .addColumn('revoked_at', TIME)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('oauth_access_tokens'))
    .addColumn('application_id', 'bigint', (c) => c.references('oauth_applications.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('refresh_digest', 'text', (c) => c.unique())
    .addColumn('previous_refresh_digest', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_in', 'integer')
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'bigint')
    .addColumn('rotated_at', TIME)
    .addColumn('revoked_at', TIME)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_access_tokens_family').on('oauth_access_tokens').columns(['family_id']).execute();
  await db.schema.createIndex('oauth_access_tokens_grant').on('oauth_access_tokens').columns(['grant_id']).execute();
  // "Authorized applications" lists a user's live tokens grouped by application.
  await db.schema.createIndex('oauth_access_tokens_user_app').on('oauth_access_tokens').columns(['user_id', 'application_id']).execute();
  await db.schema.createIndex('oauth_access_grants_app').on('oauth_access_grants').columns(['application_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
