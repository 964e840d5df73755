import type { Kysely } from 'kysely';

// A job handed to a runner downloads the artifacts of its pipeline's earlier stages: this index finds
// those jobs (often none: the first stage) without reading each of the pipeline's jobs (issue 39).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('ci_builds_pipeline_stage').on('ci_builds').columns(['commit_id', 'stage_idx', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ci_builds_pipeline_stage').execute();
}
