// Deleting a pipeline (GitLab's Ci::DestroyPipelineService): its jobs, logs and artifacts go with it
// (the tables cascade), and the deployments its jobs made keep no deployable. A resource one of its
// jobs held goes to the group's next job in the same transaction.
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import { holdPipelineResources, settleResources } from './process-pipeline.js';

export async function deletePipeline(deps: Deps, pipelineId: number): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const groups = await holdPipelineResources(trx, deps, pipelineId);
    const builds = trx.selectFrom('ci_builds').select('id').where('commit_id', '=', pipelineId);
    await trx.updateTable('deployments').set({ deployable_id: null }).where('deployable_id', 'in', builds).execute();
    await trx.deleteFrom('ci_pipelines').where('id', '=', pipelineId).execute();
    await settleResources(trx, deps, groups);
  });
}
