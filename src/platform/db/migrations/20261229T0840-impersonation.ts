import type { Kysely } from 'kysely';

// Impersonation from the admin area (issue 36): a session signed in as a user by an administrator
// names that administrator, so every page shows the banner and "Stop impersonating" returns the
// browser to the administrator's own account. No foreign key: a session is short-lived and a
// deleted administrator's id leads nowhere (stopping then signs the browser out).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('web_sessions').addColumn('impersonator_id', 'bigint').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
