// An incident for an alert (GitLab's alert management documentation step 6): an issue of type `incident` created
// through the issues feature and linked to the alert in the same transaction. Linking is a
// conditional UPDATE (`issue_id is null`), so the job and a person pressing "Create incident" at the
// same moment still leave one incident.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { createIssue } from '../issues/api.js';
import { isoTime } from '../platform/clock.js';
import { RESOLVED, severityName } from './model.js';
import { addAlertSystemNotes, alertNoteText } from './alert-notes.js';
import type { AlertRecord } from './finder.js';

class AlreadyLinked extends Error {}

export function incidentDescription(alert: AlertRecord): string {
  const lines = [
    `**Start time:** ${isoTime(alert.started_at)}`,
    `**Severity:** ${severityName(alert.severity)}`,
    alert.service ? `**Service:** ${alert.service}` : null,
    alert.monitoring_tool ? `**Monitoring tool:** ${alert.monitoring_tool}` : null,
    JSON.parse(alert.hosts).length ? `**Hosts:** ${(JSON.parse(alert.hosts) as string[]).join(', ')}` : null,
    alert.description ? `\n${alert.description}` : null,
  ];
  return lines.filter((line) => line !== null).join('  \n');
}

/** Returns the linked incident's id, creating it when the alert has none. */
export async function createIncidentForAlert(deps: Deps, authorId: number, alert: AlertRecord): Promise<{ issueId: number; iid: number; created: boolean }> {
  if (alert.issue_id !== null) return existing(deps, Number(alert.issue_id));
  try {
    return await inTransaction(deps.db, async (trx) => {
      const issue = await createIssue(deps, { projectId: Number(alert.project_id), authorId, title: alert.title, description: incidentDescription(alert), issueType: 'incident' }, trx);
      const linked = await trx
        .updateTable('alert_management_alerts')
        .set({ issue_id: issue.id, updated_at: deps.clock.now() })
        .where('id', '=', alert.id)
        .where('issue_id', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!linked) throw new AlreadyLinked();
      await addAlertSystemNotes(trx, deps.clock.now(), { id: Number(alert.id), project_id: Number(alert.project_id) }, authorId, alertNoteText.incident(issue.iid));
      return { issueId: Number(issue.id), iid: issue.iid, created: true };
    });
  } catch (error) {
    if (!(error instanceof AlreadyLinked)) throw error;
    const row = await deps.db.selectFrom('alert_management_alerts').select('issue_id').where('id', '=', alert.id).executeTakeFirstOrThrow();
    return existing(deps, Number(row.issue_id));
  }
}

async function existing(deps: Deps, issueId: number) {
  const issue = await deps.db.selectFrom('issues').select(['id', 'iid']).where('id', '=', issueId).executeTakeFirstOrThrow();
  return { issueId: Number(issue.id), iid: issue.iid, created: false };
}

/** Whether the incident job should still act: the alert exists, has no incident and is not resolved. */
export function wantsIncident(alert: AlertRecord | undefined): alert is AlertRecord {
  return alert !== undefined && alert.issue_id === null && alert.status !== RESOLVED;
}
