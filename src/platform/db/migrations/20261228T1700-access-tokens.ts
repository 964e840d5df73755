import type { Kysely } from 'kysely';

// Impersonation tokens (issue 37): personal access tokens an administrator made for a user, marked so
// that the user's own list and the administrators' impersonation list tell them apart. Project and
// group access tokens need no column: they are tokens of bot users (users.user_type 'project_bot')
// who are members of the project or group.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personal_access_tokens').addColumn('impersonation', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
