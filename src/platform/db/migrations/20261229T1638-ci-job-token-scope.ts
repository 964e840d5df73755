import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

// The CI/CD job token's inbound scope (issue 39; GitLab's ci_job_token_project_scope_links and
// project_ci_cd_settings.inbound_job_token_scope_enabled): a project lists the projects whose job
// tokens may reach it. A project without a settings row has the limit on (GitLab's default for
// new projects), so nothing is reachable from other projects' jobs until it is allowed.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('ci_job_token_settings')
    .addColumn('project_id', 'bigint', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('inbound_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createTable('ci_job_token_project_scope_links')
    .addColumn('source_project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('target_project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('added_by_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addPrimaryKeyConstraint('ci_job_token_project_scope_links_pk', ['source_project_id', 'target_project_id'])
    .execute();
  await db.schema.createIndex('ci_job_token_project_scope_links_target').on('ci_job_token_project_scope_links').column('target_project_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
