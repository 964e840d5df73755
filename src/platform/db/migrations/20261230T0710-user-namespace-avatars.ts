import { sql, type Kysely } from 'kysely';

// A user's namespace keeps its owner's avatar file name (issue 36: GitLab's namespace entities give a
// user namespace its owner's avatar_url); from now on the avatar change writes both rows, and this
// copies the names users already have.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update namespaces set avatar = (select u.avatar from users u where u.id = namespaces.owner_id) where kind = 'user'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
