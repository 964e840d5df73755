// Whether a deploy key is enabled on a project and may push there (GitLab's DeployKey#has_access_to?
// and can_push_to?), asked by git access for every fetch and push with the key.
import type { Deps } from '../platform/deps.js';

export async function deployKeyOnProject(deps: Deps, keyId: number, projectId: number): Promise<{ canPush: boolean } | null> {
  const link = await deps.db.selectFrom('deploy_keys_projects').select('can_push').where('deploy_key_id', '=', keyId).where('project_id', '=', projectId).executeTakeFirst();
  return link ? { canPush: Number(link.can_push) === 1 } : null;
}
