import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Commit statuses (issue 34): how an external CI reports on a commit. As GitLab models it, a status is
// a row of ci_builds (type GenericCommitStatus, stage `external`) inside a pipeline, a row of
// ci_pipelines (source `external`) that groups the statuses of one sha and ref. The CI of issue 39
// adds its own builds (type Ci::Build) and pipelines (source push, web, …) to the same two tables.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('ci_pipelines'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // Per project, from internal_ids (usage 'ci_pipelines'), as GitLab's pipeline iid.
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('ref', 'text')
    .addColumn('tag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('before_sha', 'text')
    // external (commit statuses), later push, web, api, schedule, merge_request_event, …
    .addColumn('source', 'text', (c) => c.notNull())
    // The composite status of its latest builds (created, pending, running, success, failed, canceled, skipped).
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('created'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addColumn('started_at', TIME)
    .addColumn('finished_at', TIME)
    .addUniqueConstraint('ci_pipelines_project_iid', ['project_id', 'iid'])
    .execute();
  // The newest pipeline of a sha (and ref): commit statuses and a merge request's head pipeline.
  await db.schema.createIndex('ci_pipelines_project_sha').on('ci_pipelines').columns(['project_id', 'sha', 'id']).execute();

  await withId(db, db.schema.createTable('ci_builds'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // GitLab's name for the pipeline a build belongs to.
    .addColumn('commit_id', 'bigint', (c) => c.notNull().references('ci_pipelines.id').onDelete('cascade'))
    // GenericCommitStatus (a status posted through the API); the CI adds Ci::Build and Ci::Bridge.
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('stage_idx', 'integer', (c) => c.notNull())
    .addColumn('ref', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('created'))
    .addColumn('target_url', 'text')
    .addColumn('description', 'text')
    .addColumn('coverage', 'double precision')
    .addColumn('allow_failure', 'integer', (c) => c.notNull().defaultTo(0))
    // A later build of the same name in the pipeline replaced it: not among the pipeline's latest.
    .addColumn('retried', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addColumn('queued_at', TIME)
    .addColumn('started_at', TIME)
    .addColumn('finished_at', TIME)
    .execute();
  await db.schema.createIndex('ci_builds_pipeline_name').on('ci_builds').columns(['commit_id', 'name', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
