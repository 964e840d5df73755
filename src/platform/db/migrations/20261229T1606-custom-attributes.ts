import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { TIME, withId } from './_columns.js';

// Custom attributes (issue 38; GitLab's user_custom_attributes, group_custom_attributes and
// project_custom_attributes): key/value pairs administrators attach to a user, a group or a project,
// one value per key, gone with their owner.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('custom_attributes'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addCheckConstraint('custom_attributes_one_owner', sql`(case when user_id is null then 0 else 1 end) + (case when group_id is null then 0 else 1 end) + (case when project_id is null then 0 else 1 end) = 1`)
    .execute();
  await db.schema.createIndex('custom_attributes_user_key').on('custom_attributes').columns(['user_id', 'key']).unique().execute();
  await db.schema.createIndex('custom_attributes_group_key').on('custom_attributes').columns(['group_id', 'key']).unique().execute();
  await db.schema.createIndex('custom_attributes_project_key').on('custom_attributes').columns(['project_id', 'key']).unique().execute();
  await db.schema.createIndex('custom_attributes_key_value').on('custom_attributes').columns(['key', 'value']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
