// Who may pass pipeline variables (GitLab's set_pipeline_variables, ProjectCiCdSetting#
// override_pipeline_variables_allowed?): everyone who may run the pipeline while the project does
// not restrict them; with `restrict_user_defined_variables`, a role of at least the project's
// `ci_pipeline_variables_minimum_override_role`, or nobody with `no_one_allowed`.
import { ACCESS } from '../access-levels.js';

const MINIMUM_LEVEL: Readonly<Record<string, number>> = { developer: ACCESS.developer, maintainer: ACCESS.maintainer, owner: ACCESS.owner };

/**
 * Under `restrict_user_defined_variables`: `level`, the user's access level on the project (an
 * administrator's counts as an Owner's, as elsewhere in Kiln), against the minimum role.
 */
export function allowsPipelineVariables(minimumRole: string, level: number): boolean {
  const minimum = MINIMUM_LEVEL[minimumRole];
  // `no_one_allowed` has no level: not even an Owner passes variables.
  return minimum !== undefined && level >= minimum;
}
