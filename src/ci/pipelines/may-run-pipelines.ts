// Whether a pipeline may still be made in a user's name where the user is not the one asking (a
// schedule runs as its owner, a trigger token as its owner): GitLab's CreatePipelineService checks
// create_pipeline for that user every time (Chain::Validate::Abilities), so whoever was removed from
// the project, demoted below Developer, blocked or deactivated since, or an access token's bot whose
// tokens are all revoked or expired (it stays a member: revoke-resource-access-token.ts), runs nothing.
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { actsInName, toAuthUser, userCanOnProject } from '../../accounts/api.js';

/** GitLab's message when the pipeline's user may not create pipelines in the project. */
export const INSUFFICIENT_PERMISSIONS = 'Insufficient permissions to create a new pipeline';

export async function mayRunPipelines(deps: Deps, userId: number | null, project: ProjectRow): Promise<boolean> {
  if (userId === null) return false;
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user || !(await actsInName(deps, user))) return false;
  return userCanOnProject(deps.reads, toAuthUser(user), project, 'create_pipeline', deps.clock.now());
}
