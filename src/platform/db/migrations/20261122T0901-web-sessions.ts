import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

// Browser sessions live in the database so every node sees them (docs/architecture.md, Scale-out).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('web_sessions')
    .addColumn('id_digest', 'text', (c) => c.primaryKey()) // SHA-256 of the cookie value
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('pending_user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade')) // password ok, second factor due
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('flash', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('last_seen_at', TIME, (c) => c.notNull())
    .addColumn('expires_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_user').on('web_sessions').columns(['user_id']).execute();
  await db.schema.createIndex('web_sessions_expires').on('web_sessions').columns(['expires_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
