import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Git LFS (issue 37): objects are content-addressed and stored once for the whole instance
// (`lfs_objects`, one row per oid); which projects may serve an object is a link table, so that a
// project reads only what was uploaded to it (or linked to it). File locks of the LFS locks API, one
// per (project, path). Whether a project serves LFS
// is its stored `lfs_enabled` setting (accounts/settings-tables.ts), not a column.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('lfs_objects'))
    .addColumn('oid', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lfs_objects_oid').on('lfs_objects').column('oid').unique().execute();

  await withId(db, db.schema.createTable('lfs_objects_projects'))
    .addColumn('lfs_object_id', 'bigint', (c) => c.notNull().references('lfs_objects.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lfs_objects_projects_link').on('lfs_objects_projects').columns(['project_id', 'lfs_object_id']).unique().execute();
  // Orphan clean-up asks which objects no project links any more.
  await db.schema.createIndex('lfs_objects_projects_object').on('lfs_objects_projects').column('lfs_object_id').execute();

  await withId(db, db.schema.createTable('lfs_file_locks'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lfs_file_locks_path').on('lfs_file_locks').columns(['project_id', 'path']).unique().execute();
  await db.schema.createIndex('lfs_file_locks_project').on('lfs_file_locks').columns(['project_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
