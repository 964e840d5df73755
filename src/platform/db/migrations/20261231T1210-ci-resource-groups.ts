import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Resource groups (issue 39; GitLab's ci_resource_groups, ci_resources and ci_builds.resource_group_id):
// a project's named groups, made when a pipeline first uses one, each with one resource that at most
// one job holds (`build_id`). Taking the resource is a conditional update of its row, so two nodes can
// never both hand it out. A job of a group waits in `waiting_for_resource` from `waiting_for_resource_at`.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('ci_resource_groups'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('process_mode', 'text', (c) => c.notNull().defaultTo('unordered'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ci_resource_groups_project_key').on('ci_resource_groups').columns(['project_id', 'key']).unique().execute();
  await withId(db, db.schema.createTable('ci_resources'))
    .addColumn('resource_group_id', 'bigint', (c) => c.notNull().references('ci_resource_groups.id').onDelete('cascade'))
    .addColumn('build_id', 'bigint', (c) => c.references('ci_builds.id').onDelete('set null'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ci_resources_group').on('ci_resources').column('resource_group_id').unique().execute();
  await db.schema.createIndex('ci_resources_build').on('ci_resources').column('build_id').execute();
  await db.schema.alterTable('ci_builds').addColumn('resource_group_id', 'bigint').execute();
  await db.schema.alterTable('ci_builds').addColumn('waiting_for_resource_at', TIME).execute();
  await db.schema.createIndex('ci_builds_resource_group_status').on('ci_builds').columns(['resource_group_id', 'status']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
