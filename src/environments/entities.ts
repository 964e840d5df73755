// Wire shapes of environments and deployments (GitLab's REST API documentation; the specification's Environment
// resource), fields listed explicitly.
import type { Selectable } from 'kysely';
import { isoTime } from '../platform/clock.js';
import type { DeploymentsTable, EnvironmentsTable } from '../platform/db/tables/environments.js';
import { type UserRow, userBasic } from '../accounts/api.js';

export type EnvironmentRow = Selectable<EnvironmentsTable>;
export type DeploymentRow = Selectable<DeploymentsTable>;
export type DeploymentUser = Pick<UserRow, 'id' | 'username' | 'name' | 'state' | 'avatar'>;

/** GitLab's EnvironmentBasic (`environment` inside a deployment). */
export function environmentBasic(env: EnvironmentRow) {
  return { id: Number(env.id), name: env.name, slug: env.slug, external_url: env.external_url };
}

/** The specification's short form (list, create, edit, stop), plus GitLab's `tier`. */
export function environmentEntity(env: EnvironmentRow) {
  return { id: Number(env.id), name: env.name, slug: env.slug, external_url: env.external_url, state: env.state, tier: env.tier };
}

/**
 * GitLab's Deployment entity. `deployable` is the CI job that made it (environments/hooks.ts), null for
 * deployments created through the API; the
 * environment's own GET leaves out `environment` (GitLab presents it with `except: [:environment]`).
 */
export function deploymentEntity(baseUrl: string, deployment: DeploymentRow, user: DeploymentUser | null, env: EnvironmentRow | null, deployable: unknown = null) {
  return {
    id: Number(deployment.id),
    iid: deployment.iid,
    ref: deployment.ref,
    sha: deployment.sha,
    created_at: isoTime(deployment.created_at),
    updated_at: isoTime(deployment.updated_at),
    user: user ? userBasic(baseUrl, user) : null,
    ...(env ? { environment: environmentBasic(env) } : {}),
    deployable,
    status: deployment.status,
  };
}

/** The single-environment response: short form with `last_deployment` (null when none succeeded). */
export function environmentWithLastDeployment(baseUrl: string, env: EnvironmentRow, last: { deployment: DeploymentRow; user: DeploymentUser | null } | null, deployable: unknown = null) {
  return {
    ...environmentEntity(env),
    last_deployment: last ? deploymentEntity(baseUrl, last.deployment, last.user, null, deployable) : null,
  };
}
