// A pipeline for a branch or tag named by the caller (the API, a trigger token, a schedule): the ref
// must exist (a branch is preferred over a tag of the same name, as GitLab does), and a configuration
// that selects no job is an error rather than nothing. Errors are GitLab's `{"message": {"base": [...]}}`.
import type { Deps } from '../../platform/deps.js';
import type { CiPipelineRow } from '../../commit-statuses/api.js';
import { listRefs, readableRepository } from '../../repositories/api.js';
import { createPipeline, PipelineCreationError, PIPELINES_DISABLED, pipelinesDisabled, type CreatePipelineInput } from './create-pipeline.js';
import { queueSignal } from '../queue-signal.js';
import { INSUFFICIENT_VARIABLES_PERMISSIONS, maySetPipelineVariables } from './pipeline-variables-allowed.js';

export async function runPipelineForRef(deps: Deps, input: Omit<CreatePipelineInput, 'tag' | 'sha' | 'beforeSha'> & { tag?: boolean }): Promise<CiPipelineRow> {
  // GitLab checks the project's CI before the ref.
  if (pipelinesDisabled(input.project)) throw new PipelineCreationError([PIPELINES_DISABLED]);
  // A schedule's variables were checked when they were saved (GitLab does not pass them as the
  // pipeline's own variables, so its run is not refused); everyone else's are checked now.
  if (input.source !== 'schedule' && input.variables?.length && !(await maySetPipelineVariables(deps, input.userId, input.project))) {
    throw new PipelineCreationError([INSUFFICIENT_VARIABLES_PERMISSIONS]);
  }
  const path = await readableRepository(deps, input.project);
  const refs = path ? await listRefs(path) : new Map<string, string>();
  // `tag` set: the caller named a full ref (`refs/tags/…` or `refs/heads/…`, as a schedule may).
  const branch = input.tag === undefined ? refs.has(`refs/heads/${input.ref}`) : !input.tag && refs.has(`refs/heads/${input.ref}`);
  if (!branch && (input.tag === false || !refs.has(`refs/tags/${input.ref}`))) throw new PipelineCreationError(['Reference not found']);
  const pipeline = await createPipeline(deps, { ...input, tag: !branch });
  if (!pipeline) throw new PipelineCreationError(['No stages / jobs for this pipeline.']);
  queueSignal(deps).tick();
  return pipeline;
}
