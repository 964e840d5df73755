// Deploy keys as the API lists and finds them: the instance's (administrators), a project's with its
// `can_push`, and the ones a user may enable on a project (GitLab's User#accessible_deploy_keys).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { findProjectRow, userCanOnProject } from '../accounts/api.js';
import type { KeyRow } from './entities.js';

/** Every deploy key, or only the public ones (or only the others), oldest first. */
export function instanceDeployKeysQuery(deps: Deps, publicOnly: boolean | undefined) {
  let query = deps.db.selectFrom('keys').selectAll().where('type', '=', 'DeployKey');
  if (publicOnly !== undefined) query = query.where('public', '=', publicOnly ? 1 : 0);
  return query.orderBy('id');
}

/** A project's deploy keys with the link's `can_push`, oldest link first. */
export function projectDeployKeysQuery(deps: Deps, projectId: number) {
  return deps.db
    .selectFrom('deploy_keys_projects as l')
    .innerJoin('keys as k', 'k.id', 'l.deploy_key_id')
    .selectAll('k')
    .select(['l.can_push as link_can_push'])
    .where('l.project_id', '=', projectId)
    .orderBy('l.id');
}

export type ProjectDeployKeyRow = KeyRow & { link_can_push: number };

export async function findProjectDeployKey(deps: Deps, projectId: number, keyId: number): Promise<ProjectDeployKeyRow | undefined> {
  return projectDeployKeysQuery(deps, projectId).where('k.id', '=', keyId).executeTakeFirst();
}

export async function findDeployKey(deps: Deps, keyId: number): Promise<KeyRow | undefined> {
  return deps.db.selectFrom('keys').selectAll().where('id', '=', keyId).where('type', '=', 'DeployKey').executeTakeFirst();
}

/**
 * Whether the user may enable this deploy key on a project they maintain: a public key, or one
 * enabled on another project they maintain (administrators: any).
 */
export async function mayEnableDeployKey(deps: Deps, user: AuthUser, key: KeyRow): Promise<boolean> {
  if (user.admin || key.public === 1) return true;
  const links = await deps.db.selectFrom('deploy_keys_projects').select('project_id').where('deploy_key_id', '=', Number(key.id)).execute();
  for (const link of links) {
    const project = await findProjectRow(deps, Number(link.project_id));
    if (!project) continue;
    if (await userCanOnProject(deps.reads, user, project, 'admin_project', deps.clock.now())) return true;
  }
  return false;
}

/** The projects a deploy key is enabled on, as its links (GitLab's DeployKey#deploy_keys_projects), oldest first. */
export function deployKeyLinks(deps: Deps, keyId: number) {
  return deps.db.selectFrom('deploy_keys_projects').selectAll().where('deploy_key_id', '=', keyId).orderBy('id').execute();
}
