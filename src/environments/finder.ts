// Reads of environments, always through their project (docs/architecture.md). Each is one indexed query.
import type { Executor } from '../platform/db/database.js';
import { lowerLike } from '../platform/db/like.js';
import type { EnvironmentState } from '../platform/db/tables/environments.js';
import { RecordNotFoundError } from '../platform/errors.js';
import type { DeploymentRow, DeploymentUser, EnvironmentRow } from './entities.js';

export interface EnvironmentFilters {
  /** Exact name. */
  name?: string;
  /** Case-insensitive name prefix (GitLab's `Environment.for_name_like`). */
  search?: string;
  states?: EnvironmentState;
}

function likePrefix(value: string): string {
  return `${value.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A project's environments by id ascending, the order GitLab's paginator adds. */
export function environmentsQuery(db: Executor, projectId: number, filters: EnvironmentFilters) {
  let query = db.selectFrom('environments').selectAll().where('project_id', '=', projectId);
  // GitLab's EnvironmentsFinder applies each filter only when `present?`: an empty value is no filter.
  if (filters.name) query = query.where('name', '=', filters.name);
  if (filters.search) query = query.where(lowerLike('name', likePrefix(filters.search)));
  if (filters.states !== undefined) query = query.where('state', '=', filters.states);
  return query.orderBy('id', 'asc');
}

/** An environment of the project, or GitLab's RecordNotFound (`404 Not found`). */
export async function findEnvironment(db: Executor, projectId: number, environmentId: number): Promise<EnvironmentRow> {
  const env = await db.selectFrom('environments').selectAll().where('project_id', '=', projectId).where('id', '=', environmentId).executeTakeFirst();
  if (!env) throw new RecordNotFoundError();
  return env;
}

export async function findEnvironmentByName(db: Executor, projectId: number, name: string): Promise<EnvironmentRow | undefined> {
  return db.selectFrom('environments').selectAll().where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
}

export interface DeploymentWithUser {
  deployment: DeploymentRow;
  user: DeploymentUser | null;
}

/**
 * The single-environment read (the benchmarked hot path): the environment, its last successful
 * deployment and that deployment's user in one query, each step served by an index.
 */
export async function findEnvironmentWithLastDeployment(db: Executor, projectId: number, environmentId: number): Promise<{ env: EnvironmentRow; last: DeploymentWithUser | null }> {
  const row = await db
    .selectFrom('environments as e')
    .leftJoin('deployments as d', (join) =>
      join.on('d.id', '=', (eb) => eb.selectFrom('deployments as s').select('s.id').whereRef('s.environment_id', '=', 'e.id').where('s.status', '=', 'success').orderBy('s.id', 'desc').limit(1)),
    )
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .selectAll('e')
    .select([
      'd.id as d_id', 'd.iid as d_iid', 'd.ref as d_ref', 'd.sha as d_sha', 'd.tag as d_tag', 'd.status as d_status', 'd.user_id as d_user_id',
      'd.created_at as d_created_at', 'd.updated_at as d_updated_at', 'd.finished_at as d_finished_at', 'd.deployable_id as d_deployable_id',
      'u.username as u_username', 'u.name as u_name', 'u.state as u_state', 'u.avatar as u_avatar',
    ])
    .where('e.project_id', '=', projectId)
    .where('e.id', '=', environmentId)
    .executeTakeFirst();
  if (!row) throw new RecordNotFoundError();
  const { d_id, d_iid, d_ref, d_sha, d_tag, d_status, d_user_id, d_created_at, d_updated_at, d_finished_at, d_deployable_id, u_username, u_name, u_state, u_avatar, ...env } = row;
  if (d_id === null) return { env, last: null };
  const deployment: DeploymentRow = {
    id: d_id, project_id: env.project_id, environment_id: env.id, iid: d_iid as number, ref: d_ref as string, sha: d_sha as string, tag: d_tag as number,
    status: d_status as DeploymentRow['status'], user_id: d_user_id, created_at: d_created_at as number, updated_at: d_updated_at as number, finished_at: d_finished_at,
    deployable_id: d_deployable_id === null ? null : Number(d_deployable_id),
  };
  const user = d_user_id !== null && u_username !== null ? { id: d_user_id, username: u_username, name: u_name as string, state: u_state as DeploymentUser['state'], avatar: u_avatar } : null;
  return { env, last: { deployment, user } };
}

/**
 * `last_deployment`: the environment's most recent successful deployment (GitLab 14.x
 * `has_one :last_deployment, -> { success }`), with its user, in one query.
 */
export async function lastSuccessfulDeployment(db: Executor, environmentId: number): Promise<DeploymentWithUser | null> {
  const row = await db
    .selectFrom('deployments as d')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .selectAll('d')
    .select(['u.username as user_username', 'u.name as user_name', 'u.state as user_state', 'u.avatar as user_avatar'])
    .where('d.environment_id', '=', environmentId)
    .where('d.status', '=', 'success')
    .orderBy('d.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const { user_username, user_name, user_state, user_avatar, ...deployment } = row;
  const user = deployment.user_id !== null && user_username !== null ? { id: deployment.user_id, username: user_username, name: user_name as string, state: user_state as DeploymentUser['state'], avatar: user_avatar } : null;
  return { deployment, user };
}
