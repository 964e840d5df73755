import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('error_tracking_settings')
    .addColumn('project_id', 'bigint', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('integrated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('api_url', 'text')
    .addColumn('project_name', 'text')
    .addColumn('organization_name', 'text')
    .addColumn('token_sealed', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
