import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { TIME, withId } from './_columns.js';

// Project and group badges (issue 38; GitLab's badges table with its ProjectBadge / GroupBadge types):
// a name, a link and an image URL, owned by exactly one project or one group. A project shows its own
// badges and those of its group and the group's ancestors; rows go with their owner.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('badges'))
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('link_url', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addCheckConstraint('badges_one_owner', sql`(project_id is null) <> (group_id is null)`)
    .execute();
  await db.schema.createIndex('badges_project').on('badges').columns(['project_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('badges_group').on('badges').columns(['group_id', 'created_at', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
