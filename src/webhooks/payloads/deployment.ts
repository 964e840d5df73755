// Deployment Hook payload (Gitlab::DataBuilder::Deployment), sent when a deployment's status changes.
import type { Deps } from '../../platform/deps.js';
import { commitForHook, hookTime, projectAttrs, projectForHook, userAttrs, usersForHook } from './common.js';

export async function deploymentHookData(deps: Deps, input: { deploymentId: number; actorId: number | null; status?: string }) {
  const row = await deps.db
    .selectFrom('deployments')
    .innerJoin('environments', 'environments.id', 'deployments.environment_id')
    .select(['deployments.id', 'deployments.project_id', 'deployments.status', 'deployments.sha', 'deployments.ref', 'deployments.user_id', 'deployments.updated_at', 'deployments.deployable_id', 'environments.name as environment', 'environments.slug', 'environments.tier', 'environments.external_url'])
    .where('deployments.id', '=', input.deploymentId)
    .executeTakeFirst();
  if (!row) return null;
  const project = await projectForHook(deps, Number(row.project_id));
  if (!project) return null;
  const users = await usersForHook(deps, [row.user_id === null ? null : Number(row.user_id)]);
  const user = row.user_id === null ? undefined : users.get(Number(row.user_id));
  const attrs = projectAttrs(deps, project);
  const commit = await commitForHook(deps, Number(row.project_id), row.sha);
  // The CI job that made the deployment (GitLab's deployable, a Ci::Build); null for one made through the API.
  const deployableId = row.deployable_id === null ? null : Number(row.deployable_id);
  return {
    object_kind: 'deployment',
    // The status the event reported (the deployment may have moved on when the job runs).
    status: input.status ?? row.status,
    status_changed_at: hookTime(row.updated_at),
    deployment_id: Number(row.id),
    deployable_id: deployableId,
    deployable_url: deployableId === null ? null : `${attrs.web_url}/-/jobs/${deployableId}`,
    environment: row.environment,
    environment_tier: row.tier,
    environment_slug: row.slug,
    environment_external_url: row.external_url,
    project: attrs,
    short_sha: row.sha.slice(0, 8),
    user: userAttrs(deps, user),
    user_url: user ? `${deps.config.baseUrl}/${user.username}` : null,
    commit_url: `${attrs.web_url}/-/commit/${row.sha}`,
    commit_title: commit ? commit.message.split('\n')[0] : null,
    ref: row.ref,
  };
}
