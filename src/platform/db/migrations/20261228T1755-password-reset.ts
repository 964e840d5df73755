import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

// A forgotten password's reset link: the digest of its token (never the token) and when it was
// sent, on the user as Devise keeps them; cleared when the link is used.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('reset_password_digest', 'text').execute();
  await db.schema.alterTable('users').addColumn('reset_password_sent_at', TIME).execute();
  await db.schema.createIndex('users_reset_password_digest').on('users').column('reset_password_digest').unique().execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
