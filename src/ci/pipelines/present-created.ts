// The answer to a pipeline made on request (API, trigger): GitLab's Pipeline entity, and a creation
// error as its 400 `{"message": {"base": [...]}}`.
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { ApiError } from '../../platform/http/api-error.js';
import { pipelineEntity, type CiPipelineRow } from '../../commit-statuses/api.js';
import { usersById } from '../../issues/api.js';
import { PipelineCreationError } from './create-pipeline.js';

export async function createdPipeline(create: () => Promise<CiPipelineRow>): Promise<CiPipelineRow> {
  try {
    return await create();
  } catch (error) {
    if (error instanceof PipelineCreationError) throw new ApiError(400, { message: { base: error.errors } });
    throw error;
  }
}

export async function presentCreatedPipeline(deps: Deps, pipeline: CiPipelineRow, project: ProjectRow) {
  const users = await usersById(deps.db, [pipeline.user_id]);
  return pipelineEntity(deps.config.baseUrl, pipeline, project.full_path, { user: pipeline.user_id === null ? undefined : users.get(Number(pipeline.user_id)), coverage: null });
}
