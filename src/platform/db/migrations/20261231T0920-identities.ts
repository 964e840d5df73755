import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Users' external identities (issue 38; GitLab's `identities`): the account a user has at an external
// authentication provider, set by administrators through POST/PUT /users (`provider`, `extern_uid`).
// One identity per provider and user, and one user per external account of a provider; gone with
// the user.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('identities'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('extern_uid', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('identities_user_provider').on('identities').columns(['user_id', 'provider']).unique().execute();
  await db.schema.createIndex('identities_provider_extern_uid').on('identities').columns(['provider', 'extern_uid']).unique().execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
