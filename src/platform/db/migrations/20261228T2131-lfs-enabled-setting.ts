import type { Kysely } from 'kysely';

// A project's `lfs_enabled` is one of its stored settings (the `settings` JSON of
// accounts/settings-tables.ts, which PUT /projects/:id writes and the entity shows): the column
// 20261228T2107-lfs added for it said the same thing twice, and goes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('lfs_enabled').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
