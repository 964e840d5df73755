import type { Kysely } from 'kysely';

// User avatars (issue 36): the uploaded file's name on the user's row, as projects and groups keep
// theirs, so every query that builds a user entity reads it with the user (no query per user); the
// file itself goes in `avatars` with model_type 'User'.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('avatar', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
