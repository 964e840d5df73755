import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Protected branches of a project (GitLab's protected_branches with its push and merge access
// levels). `name` is a branch name or a wildcard such as `release/*`; one rule per name and project.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('protected_branches'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('allow_force_push', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('code_owner_approval_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    // Two nodes protecting the same name at once: the database keeps one (409 for the other).
    .addUniqueConstraint('protected_branches_project_name', ['project_id', 'name'])
    .execute();

  // GitLab keeps push and merge levels in two tables; one table with `action` gives the same rows.
  await withId(db, db.schema.createTable('protected_branch_access_levels'))
    .addColumn('protected_branch_id', 'bigint', (c) => c.notNull().references('protected_branches.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull()) // 'push' | 'merge'
    .addColumn('access_level', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('protected_branch_access_levels_branch').on('protected_branch_access_levels').columns(['protected_branch_id', 'action', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
