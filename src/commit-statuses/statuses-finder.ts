// GET /projects/:id/repository/commits/:sha/statuses: the statuses of every pipeline of the sha,
// only the latest of each name unless `all`, filtered by ref, stage and name (GitLab's
// CommitStatuses API).
import type { Deps } from '../platform/deps.js';

export interface StatusFilters {
  ref?: string;
  stage?: string;
  name?: string;
  pipelineId?: number;
  all?: boolean;
}

export function commitStatusesQuery(deps: Deps, projectId: number, sha: string, filters: StatusFilters) {
  let query = deps.db
    .selectFrom('ci_builds as b')
    .innerJoin('ci_pipelines as p', 'p.id', 'b.commit_id')
    .selectAll('b')
    .select('p.sha as pipeline_sha')
    .where('p.project_id', '=', projectId)
    .where('p.sha', '=', sha);
  if (!filters.all) query = query.where('b.retried', '=', 0);
  if (filters.ref) query = query.where('b.ref', '=', filters.ref);
  if (filters.stage) query = query.where('b.stage', '=', filters.stage);
  if (filters.name) query = query.where('b.name', '=', filters.name);
  if (filters.pipelineId !== undefined) query = query.where('p.id', '=', filters.pipelineId);
  return query.orderBy('b.id');
}
