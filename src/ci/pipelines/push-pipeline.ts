// The pipeline of a push (GitLab's post-receive → Ci::CreatePipelineService with source `push`): one
// per branch or tag that moved, run as the pusher. At-least-once: a repeated job finds the pipeline of
// that push (same ref, sha and before) and makes no second one.
import type { Deps } from '../../platform/deps.js';
import { findProjectRow } from '../../accounts/api.js';
import { createPipeline } from './create-pipeline.js';
import { queueSignal } from '../queue-signal.js';

export const PUSH_PIPELINE_JOB = 'ci.push_pipeline';

export async function pushPipelineJob(deps: Deps, payload: { projectId: number; actorId: number | null; ref: string; before: string | null; after: string }): Promise<void> {
  const project = await findProjectRow(deps, payload.projectId);
  if (!project) return;
  const tag = payload.ref.startsWith('refs/tags/');
  const ref = payload.ref.replace(/^refs\/(heads|tags)\//, '');
  const existing = await deps.db
    .selectFrom('ci_pipelines')
    .select('id')
    .where('project_id', '=', project.id)
    .where('source', '=', 'push')
    .where('ref', '=', ref)
    .where('sha', '=', payload.after)
    .where('before_sha', payload.before === null ? 'is' : '=', payload.before)
    .executeTakeFirst();
  if (existing) return;
  await createPipeline(deps, { project, ref, tag, sha: payload.after, beforeSha: payload.before, source: 'push', userId: payload.actorId });
  queueSignal(deps).tick();
}
