import type { Kysely } from 'kysely';

// Auto-cancel redundant pipelines (GitLab's Ci::PipelineCreation::CancelRedundantPipelinesService):
// each pipeline keeps its own `workflow:auto_cancel` (GitLab keeps them in ci_pipeline_metadata), since
// the older pipeline's setting decides whether a newer one cancels it; the pipeline and the jobs a newer
// pipeline cancelled remember it in `auto_canceled_by_id`. Null settings are GitLab's defaults
// (`conservative`, `none`), which pipelines made before this migration get.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ci_pipelines').addColumn('auto_cancel_on_new_commit', 'text').execute();
  await db.schema.alterTable('ci_pipelines').addColumn('auto_cancel_on_job_failure', 'text').execute();
  await db.schema.alterTable('ci_pipelines').addColumn('auto_canceled_by_id', 'bigint', (c) => c.references('ci_pipelines.id').onDelete('set null')).execute();
  await db.schema.alterTable('ci_builds').addColumn('auto_canceled_by_id', 'bigint', (c) => c.references('ci_pipelines.id').onDelete('set null')).execute();
  // The redundant pipelines of a ref are looked up at every pipeline's creation.
  await db.schema.createIndex('ci_pipelines_project_ref').on('ci_pipelines').columns(['project_id', 'ref', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
