import { sql, type Kysely } from 'kysely';
import { TIME } from './_columns.js';

// When a personal access token was revoked (epoch ms). A project or group access token stays listed
// as inactive after its revocation, and its bot is deleted once every token of the bot has been
// inactive for 30 days (GitLab's inactive_resource_access_tokens_delete_after_days): the retention
// counts from here. Tokens revoked before this migration take its time.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personal_access_tokens').addColumn('revoked_at', TIME).execute();
  await sql`update personal_access_tokens set revoked_at = ${Date.now()} where revoked = 1`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
