// The open alerts of one environment, for its page: those whose `gitlab_environment_name` names it
// (the specification: that name is what shows alerts on an environment's dashboard), newest first.
import type { Deps } from '../platform/deps.js';
import { STATUS_CODE } from './model.js';

export function openAlertsOfEnvironment(deps: Deps, projectId: number, environmentName: string) {
  return deps.db
    .selectFrom('alert_management_alerts')
    .select(['iid', 'title', 'severity', 'status', 'started_at'])
    .where('project_id', '=', projectId)
    .where('environment_name', '=', environmentName)
    .where('status', 'in', [STATUS_CODE.triggered, STATUS_CODE.acknowledged])
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}
