import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Pipeline schedules (issue 39; GitLab's ci_pipeline_schedules and ci_pipeline_schedule_variables):
// a cron pattern in a time zone runs a pipeline for a ref as the schedule's owner. `next_run_at` is
// the claim: a node that runs a due schedule first moves it forward with a conditional UPDATE on the
// value it read, so two nodes never run the same occurrence. Variable values are sealed with the
// instance key, as CI/CD variables are. A pipeline remembers the schedule that made it.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('ci_pipeline_schedules'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('owner_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('cron', 'text', (c) => c.notNull())
    .addColumn('cron_timezone', 'text', (c) => c.notNull())
    .addColumn('next_run_at', TIME)
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ci_pipeline_schedules_project').on('ci_pipeline_schedules').column('project_id').execute();
  // The worker's question: which active schedules are due.
  await db.schema.createIndex('ci_pipeline_schedules_due').on('ci_pipeline_schedules').columns(['active', 'next_run_at']).execute();

  await withId(db, db.schema.createTable('ci_pipeline_schedule_variables'))
    .addColumn('pipeline_schedule_id', 'bigint', (c) => c.notNull().references('ci_pipeline_schedules.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value_sealed', 'text', (c) => c.notNull())
    .addColumn('variable_type', 'text', (c) => c.notNull().defaultTo('env_var'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ci_pipeline_schedule_variables_key').on('ci_pipeline_schedule_variables').columns(['pipeline_schedule_id', 'key']).unique().execute();

  await db.schema.alterTable('ci_pipelines').addColumn('pipeline_schedule_id', 'bigint', (c) => c.references('ci_pipeline_schedules.id').onDelete('set null')).execute();
  await db.schema.createIndex('ci_pipelines_schedule').on('ci_pipelines').columns(['pipeline_schedule_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
