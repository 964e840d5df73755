import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

// What a user sets on their own account pages: pronouns (GitLab's profile field), the theme and time
// zone of their pages, and GitLab's password_expires_at (a password the user must change at the
// next sign-in: root's generated one, or one an administrator reset). Browser sessions keep where
// they were signed in from, for the active sessions page.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('pronouns', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('users').addColumn('theme', 'text', (c) => c.notNull().defaultTo('system')).execute();
  await db.schema.alterTable('users').addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC')).execute();
  await db.schema.alterTable('users').addColumn('password_expires_at', TIME).execute();
  await db.schema.alterTable('web_sessions').addColumn('ip_address', 'text').execute();
  await db.schema.alterTable('web_sessions').addColumn('user_agent', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
