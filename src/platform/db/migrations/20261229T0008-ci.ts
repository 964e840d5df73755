import type { Kysely } from 'kysely';
import { TIME, isPostgres, withId } from './_columns.js';

// CI/CD (issue 39): pipelines from `.gitlab-ci.yml` and the jobs runners take. A CI job is a row of
// ci_builds (type `Ci::Build`) beside the commit statuses, with its definition (`options`, JSON: the
// scripts, image, services, artifacts, environment, needs, … a runner is handed), its token and runner.
// Runners, their registration tokens and job logs and artifacts get tables of their own. Every secret
// (runner tokens, job tokens, registration tokens) is stored as its SHA-256 digest only.
export async function up(db: Kysely<any>): Promise<void> {
  const binary = isPostgres(db) ? 'bytea' : 'blob';
  await db.schema.alterTable('ci_pipelines').addColumn('yaml_errors', 'text').execute();
  await db.schema.alterTable('ci_pipelines').addColumn('failure_reason', 'text').execute();
  // [{key, value, variable_type}] given when it was created (API, web), JSON.
  await db.schema.alterTable('ci_pipelines').addColumn('variables', 'text').execute();
  // The job-level ordering of stages: the stages declared in the file, JSON.
  await db.schema.alterTable('ci_pipelines').addColumn('stages', 'text').execute();

  // on_success, on_failure, always, manual, delayed.
  await db.schema.alterTable('ci_builds').addColumn('when', 'text').execute();
  // The job's definition from the file (parse-config.ts CiJobDefinition, after rules), JSON.
  await db.schema.alterTable('ci_builds').addColumn('options', 'text').execute();
  await db.schema.alterTable('ci_builds').addColumn('token_digest', 'text').execute();
  await db.schema.alterTable('ci_builds').addColumn('runner_id', 'bigint').execute();
  await db.schema.alterTable('ci_builds').addColumn('failure_reason', 'text').execute();
  await db.schema.alterTable('ci_builds').addColumn('tag', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Tags a runner must carry, JSON array; whether the ref is protected (ref_protected runners).
  await db.schema.alterTable('ci_builds').addColumn('tag_list', 'text').execute();
  await db.schema.alterTable('ci_builds').addColumn('protected', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('ci_builds').addColumn('environment', 'text').execute();
  await db.schema.alterTable('ci_builds').addColumn('scheduled_at', TIME).execute();
  await db.schema.alterTable('ci_builds').addColumn('erased_at', TIME).execute();
  await db.schema.alterTable('ci_builds').addColumn('artifacts_expire_at', TIME).execute();
  await db.schema.alterTable('ci_builds').addColumn('retries', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('ci_builds').addColumn('trace_size', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('ci_builds_token').on('ci_builds').column('token_digest').execute();
  // The runners' queue: pending CI jobs in id order.
  await db.schema.createIndex('ci_builds_queue').on('ci_builds').columns(['status', 'type', 'id']).execute();
  await db.schema.createIndex('ci_builds_project').on('ci_builds').columns(['project_id', 'id']).execute();

  await withId(db, db.schema.createTable('ci_runners'))
    // instance_type, group_type, project_type.
    .addColumn('runner_type', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull())
    // `glrt-` for runners created with POST /user/runners (registered with an authentication token).
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('group_id', 'bigint', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('maintenance_note', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_untagged', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('tag_list', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('access_level', 'text', (c) => c.notNull().defaultTo('not_protected'))
    .addColumn('maximum_timeout', 'integer')
    .addColumn('registration_type', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('version', 'text')
    .addColumn('revision', 'text')
    .addColumn('platform', 'text')
    .addColumn('architecture', 'text')
    .addColumn('executor_type', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('contacted_at', TIME)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ci_runners_token').on('ci_runners').column('token_digest').unique().execute();

  await withId(db, db.schema.createTable('ci_runner_projects'))
    .addColumn('runner_id', 'bigint', (c) => c.notNull().references('ci_runners.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ci_runner_projects_link').on('ci_runner_projects').columns(['runner_id', 'project_id']).unique().execute();
  await db.schema.createIndex('ci_runner_projects_project').on('ci_runner_projects').column('project_id').execute();

  // Legacy registration tokens: the instance's (no subject), a project's or a group's.
  await withId(db, db.schema.createTable('ci_registration_tokens'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'bigint')
    .addColumn('token_digest', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ci_registration_tokens_digest').on('ci_registration_tokens').column('token_digest').unique().execute();
  await db.schema.createIndex('ci_registration_tokens_subject').on('ci_registration_tokens').columns(['scope', 'subject_id']).execute();

  // A job's log, as the runner appends it.
  await db.schema.createTable('ci_build_traces')
    .addColumn('build_id', 'bigint', (c) => c.primaryKey().references('ci_builds.id').onDelete('cascade'))
    .addColumn('data', binary, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('ci_job_artifacts'))
    .addColumn('build_id', 'bigint', (c) => c.notNull().references('ci_builds.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('file_type', 'text', (c) => c.notNull())
    .addColumn('file_format', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('data', binary, (c) => c.notNull())
    .addColumn('expire_at', TIME)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ci_job_artifacts_build').on('ci_job_artifacts').columns(['build_id', 'file_type']).unique().execute();

  // The CI job a deployment was made by (GitLab's deployable).
  await db.schema.alterTable('deployments').addColumn('deployable_id', 'bigint').execute();
  await db.schema.createIndex('deployments_deployable').on('deployments').column('deployable_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
