import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Protected tags of a project (GitLab's protected_tags with their create access levels). `name` is a
// tag name or a wildcard such as `v*`; one rule per name and project, decided by the unique constraint.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('protected_tags'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('protected_tags_project_name', ['project_id', 'name'])
    .execute();

  await withId(db, db.schema.createTable('protected_tag_create_access_levels'))
    .addColumn('protected_tag_id', 'bigint', (c) => c.notNull().references('protected_tags.id').onDelete('cascade'))
    .addColumn('access_level', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('protected_tag_create_access_levels_tag').on('protected_tag_create_access_levels').columns(['protected_tag_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
