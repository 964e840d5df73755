import type { Kysely } from 'kysely';

// Merge request pipelines (issue 39; GitLab's ci_pipelines.merge_request_id): a pipeline with source
// `merge_request_event` remembers its merge request, so the merge request's pipelines are listed by
// an index and go with it when it is deleted (GitLab's foreign key cascades the same way).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ci_pipelines').addColumn('merge_request_id', 'bigint', (c) => c.references('merge_requests.id').onDelete('cascade')).execute();
  await db.schema.createIndex('ci_pipelines_merge_request').on('ci_pipelines').columns(['merge_request_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
