import type { Kysely } from 'kysely';

// TOTP steps already used per user: a code is accepted once (RFC 6238 §5.2), so a code read over a
// shoulder or replayed from a log cannot sign in a second time within its 90-second window.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('otp_used_steps')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('step', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('otp_used_steps_pk', ['user_id', 'step'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
