// Read queries of CI: pipelines with GitLab's filters, jobs by scope, one pipeline or job of a project.
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { CiStatus } from '../platform/db/tables/ci.js';

export const JOB_SCOPES = ['created', 'pending', 'running', 'failed', 'success', 'canceled', 'skipped', 'waiting_for_resource', 'manual', 'scheduled', 'preparing'] as const;

export interface PipelineFilters {
  scope?: string;
  status?: string;
  ref?: string;
  sha?: string;
  yaml_errors?: boolean;
  username?: string;
  updated_after?: string;
  updated_before?: string;
  source?: string;
  order_by?: string;
  sort?: string;
}

export function pipelinesQuery(deps: Deps, projectId: number, filters: PipelineFilters) {
  let query = deps.db.selectFrom('ci_pipelines').selectAll('ci_pipelines').where('ci_pipelines.project_id', '=', projectId);
  if (filters.scope === 'running') query = query.where('status', '=', 'running');
  if (filters.scope === 'pending') query = query.where('status', '=', 'pending');
  if (filters.scope === 'finished') query = query.where('status', 'in', ['success', 'failed', 'canceled', 'skipped']);
  if (filters.scope === 'branches') query = query.where('tag', '=', 0);
  if (filters.scope === 'tags') query = query.where('tag', '=', 1);
  if (filters.status) query = query.where('status', '=', filters.status as CiStatus);
  if (filters.ref) query = query.where('ref', '=', filters.ref);
  if (filters.sha) query = query.where('sha', '=', filters.sha);
  if (filters.source) query = query.where('source', '=', filters.source);
  if (filters.yaml_errors === true) query = query.where('yaml_errors', 'is not', null);
  if (filters.yaml_errors === false) query = query.where('yaml_errors', 'is', null);
  if (filters.username) query = query.where('user_id', 'in', deps.db.selectFrom('users').select('id').where('username_lower', '=', filters.username.toLowerCase()));
  const after = filters.updated_after ? Date.parse(filters.updated_after) : NaN;
  const before = filters.updated_before ? Date.parse(filters.updated_before) : NaN;
  if (!Number.isNaN(after)) query = query.where('updated_at', '>', after);
  if (!Number.isNaN(before)) query = query.where('updated_at', '<', before);
  const column = (filters.order_by ?? 'id') as 'id' | 'status' | 'ref' | 'updated_at' | 'user_id';
  const direction = filters.sort === 'asc' ? 'asc' : 'desc';
  query = query.orderBy(column, direction);
  return column === 'id' ? query : query.orderBy('id', direction);
}

export function jobsQuery(deps: Deps, projectId: number, options: { pipelineId?: number; scope?: string[]; includeRetried?: boolean }) {
  let query = deps.db.selectFrom('ci_builds').selectAll('ci_builds').where('project_id', '=', projectId).where('type', '=', 'Ci::Build');
  if (options.pipelineId !== undefined) query = query.where('commit_id', '=', options.pipelineId);
  if (!options.includeRetried) query = query.where('retried', '=', 0);
  if (options.scope?.length) query = query.where('status', 'in', options.scope as CiStatus[]);
  return options.pipelineId !== undefined ? query.orderBy('id', 'asc') : query.orderBy('id', 'desc');
}

export function findPipeline(db: Executor, projectId: number, pipelineId: number) {
  return db.selectFrom('ci_pipelines').selectAll().where('project_id', '=', projectId).where('id', '=', pipelineId).executeTakeFirst();
}

export function findBuild(db: Executor, projectId: number, buildId: number) {
  return db.selectFrom('ci_builds').selectAll().where('project_id', '=', projectId).where('id', '=', buildId).executeTakeFirst();
}
