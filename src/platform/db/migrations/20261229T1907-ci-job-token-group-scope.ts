import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

// The job token scope's group allowlist (issue 39; GitLab's ci_job_token_group_scope_links): a
// project allows the job tokens of every project in a group, and in its subgroups, to reach it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('ci_job_token_group_scope_links')
    .addColumn('source_project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('target_group_id', 'bigint', (c) => c.notNull().references('namespaces.id').onDelete('cascade'))
    .addColumn('added_by_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addPrimaryKeyConstraint('ci_job_token_group_scope_links_pk', ['source_project_id', 'target_group_id'])
    .execute();
  await db.schema.createIndex('ci_job_token_group_scope_links_target').on('ci_job_token_group_scope_links').column('target_group_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
