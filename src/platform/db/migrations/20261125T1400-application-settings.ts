import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

// The instance's application settings (GitLab's application_settings), one row per setting that an
// administrator changed: `value` is the setting's JSON. A setting without a row has its default, so
// a new setting needs no migration, and two administrators changing different settings at once
// never overwrite each other.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('application_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
