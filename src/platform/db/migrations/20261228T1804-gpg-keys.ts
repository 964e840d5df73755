import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Users' GPG keys (issue 37): the armored public key as given, with what was read from it when it was
// added — the primary key's id and fingerprint (unique on the instance) and its user ids' e-mails.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('gpg_keys'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    // Upper-case hex, as gpg prints them.
    .addColumn('primary_keyid', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // The e-mail addresses of the key's user ids, lower-case, space-separated.
    .addColumn('emails', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gpg_keys_fingerprint').on('gpg_keys').column('fingerprint').unique().execute();
  await db.schema.createIndex('gpg_keys_user').on('gpg_keys').columns(['user_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
