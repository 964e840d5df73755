// Background halves of incident handling (docs/architecture.md, Background jobs): idempotent handlers
// that take the alert id only and re-read the state they act on.
import type { JobHandler } from '../platform/jobs/worker.js';
import { updateIssue } from '../issues/api.js';
import { alertBotId } from './alert-bot.js';
import { createIncidentForAlert, wantsIncident } from './create-incident.js';
import { JOB_CLOSE_INCIDENT, JOB_CREATE_INCIDENT } from './process-alert-payload.js';
import { RESOLVED } from './model.js';

const createIncident: JobHandler = async (deps, payload: { alertId: number }) => {
  const alert = await deps.db.selectFrom('alert_management_alerts').selectAll().where('id', '=', payload.alertId).executeTakeFirst();
  if (!wantsIncident(alert)) return;
  await createIncidentForAlert(deps, await alertBotId(deps), alert);
};

const closeIncident: JobHandler = async (deps, payload: { alertId: number }) => {
  const alert = await deps.db.selectFrom('alert_management_alerts').selectAll().where('id', '=', payload.alertId).executeTakeFirst();
  if (!alert || alert.issue_id === null || alert.status !== RESOLVED) return;
  const issue = await deps.db.selectFrom('issues').selectAll().where('id', '=', alert.issue_id).executeTakeFirst();
  if (!issue || issue.state === 'closed') return;
  await updateIssue(deps, await alertBotId(deps), issue, { stateEvent: 'close' });
};

export const incidentJobs: Record<string, JobHandler> = {
  [JOB_CREATE_INCIDENT]: createIncident,
  [JOB_CLOSE_INCIDENT]: closeIncident,
};
