// Reads of deployments through their project, with the users and environments a page refers to
// fetched in one query each.
import type { Executor } from '../platform/db/database.js';
import type { DeploymentStatus } from '../platform/db/tables/environments.js';
import { RecordNotFoundError } from '../platform/errors.js';
import type { DeploymentRow, DeploymentUser, EnvironmentRow } from './entities.js';

export const DEPLOYMENT_ORDER = ['id', 'iid', 'created_at', 'updated_at', 'ref'] as const;
export type DeploymentOrder = (typeof DEPLOYMENT_ORDER)[number];

export interface DeploymentFilters {
  environment?: string;
  status?: DeploymentStatus;
  updatedAfter?: number;
  updatedBefore?: number;
  orderBy?: DeploymentOrder;
  sort?: 'asc' | 'desc';
}

/** GitLab's DeploymentsFinder: default order id ascending; ties broken by id. */
export function deploymentsQuery(db: Executor, projectId: number, filters: DeploymentFilters) {
  let query = db.selectFrom('deployments').selectAll('deployments').where('deployments.project_id', '=', projectId);
  if (filters.environment !== undefined) {
    const name = filters.environment;
    query = query.where('environment_id', 'in', (eb) => eb.selectFrom('environments').select('id').where('project_id', '=', projectId).where('name', '=', name));
  }
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  if (filters.updatedAfter !== undefined) query = query.where('updated_at', '>', filters.updatedAfter);
  if (filters.updatedBefore !== undefined) query = query.where('updated_at', '<', filters.updatedBefore);
  const direction = filters.sort ?? 'asc';
  const orderBy = filters.orderBy ?? 'id';
  query = query.orderBy(orderBy, direction);
  if (orderBy !== 'id') query = query.orderBy('id', direction);
  return query;
}

export async function findDeployment(db: Executor, projectId: number, deploymentId: number): Promise<DeploymentRow> {
  const deployment = await db.selectFrom('deployments').selectAll().where('project_id', '=', projectId).where('id', '=', deploymentId).executeTakeFirst();
  if (!deployment) throw new RecordNotFoundError();
  return deployment;
}

export interface DeploymentRelations {
  users: Map<number, DeploymentUser>;
  environments: Map<number, EnvironmentRow>;
}

export async function deploymentRelations(db: Executor, deployments: DeploymentRow[]): Promise<DeploymentRelations> {
  const userIds = [...new Set(deployments.map((d) => d.user_id).filter((id): id is number => id !== null).map(Number))];
  const envIds = [...new Set(deployments.map((d) => Number(d.environment_id)))];
  const [users, environments] = await Promise.all([
    userIds.length ? db.selectFrom('users').select(['id', 'username', 'name', 'state', 'avatar']).where('id', 'in', userIds).execute() : [],
    envIds.length ? db.selectFrom('environments').selectAll().where('id', 'in', envIds).execute() : [],
  ]);
  return {
    users: new Map(users.map((user) => [Number(user.id), user])),
    environments: new Map(environments.map((env) => [Number(env.id), env])),
  };
}
