import { type Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Sharing (issue 38, GitLab's group_group_links and project_group_links): a group or a project shared
// with a group, whose members then reach it at most at `group_access` until `expires_at` (a day,
// YYYY-MM-DD, as members.expires_at). One link per pair; either side's deletion removes it.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('group_group_links'))
    .addColumn('shared_group_id', 'bigint', (c) => c.notNull().references('namespaces.id').onDelete('cascade'))
    .addColumn('shared_with_group_id', 'bigint', (c) => c.notNull().references('namespaces.id').onDelete('cascade'))
    .addColumn('group_access', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  // The access checks walk a group's chain to the links on it (shared_group_id first); the
  // memberships' side goes from the invited group (shared_with_group_id).
  await db.schema.createIndex('group_group_links_pair').on('group_group_links').columns(['shared_group_id', 'shared_with_group_id']).unique().execute();
  await db.schema.createIndex('group_group_links_shared_with').on('group_group_links').column('shared_with_group_id').execute();

  await withId(db, db.schema.createTable('project_group_links'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.notNull().references('namespaces.id').onDelete('cascade'))
    .addColumn('group_access', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_group_links_pair').on('project_group_links').columns(['project_id', 'group_id']).unique().execute();
  await db.schema.createIndex('project_group_links_group').on('project_group_links').column('group_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
