// Who may pass pipeline variables (the API's and a trigger's `variables`, the Run pipeline page's
// rows, a schedule's variables): the project's `restrict_user_defined_variables` and
// `ci_pipeline_variables_minimum_override_role` asked of the policy with the user's level now.
// The project's own CI/CD variables and the `.gitlab-ci.yml` ones are not affected.
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { allowsPipelineVariables } from '../../platform/auth/policies/pipeline-variables-policy.js';
import { projectAccess, projectSetting, toAuthUser } from '../../accounts/api.js';

/** GitLab's message (a 400 `{"message": {"base": [...]}}` from the API) when the user's role is too low. */
export const INSUFFICIENT_VARIABLES_PERMISSIONS = 'Insufficient permissions to set pipeline variables';

export async function maySetPipelineVariables(deps: Deps, userId: number | null, project: ProjectRow): Promise<boolean> {
  if (projectSetting(project, 'restrict_user_defined_variables') !== true) return true;
  const user = userId === null ? undefined : await deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) return false;
  const { level } = await projectAccess(deps.reads, toAuthUser(user), project, deps.clock.now());
  return allowsPipelineVariables(String(projectSetting(project, 'ci_pipeline_variables_minimum_override_role')), level);
}
