// New alert e-mail (GitLab's NotificationService for alerts with the incident setting `send_email`):
// one message per new alert to the project's Owners and Maintainers, i.e. the members holding
// admin_operations, directly or through the project's groups. Levels and subscriptions do not apply,
// as in GitLab; blocked users and undeliverable addresses get nothing.
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { isoTime } from '../platform/clock.js';
import { html } from '../platform/web/html.js';
import { composedBy, queueEmails, type OutgoingEmail } from '../email/api.js';
import { levelOn, toAuthUser } from '../accounts/api.js';
import { projectTeamLevelsSql } from '../platform/auth/membership-queries.js';
import { severityName, titleCase } from '../alerts/api.js';
import { addressesOf, deliverable } from './recipients.js';
import { fromHeader, listId, mailHost } from './issue-email.js';

export const JOB_NOTIFY_ALERT = 'notifications.alert';

export async function notifyNewAlert(deps: Deps, payload: { alertId: number }, job: ClaimedJob): Promise<void> {
  if (await composedBy(deps, job.id)) return;
  const alert = await deps.db.selectFrom('alert_management_alerts').selectAll().where('id', '=', payload.alertId).executeTakeFirst();
  if (!alert) return;
  const project = await deps.db.selectFrom('projects').selectAll().where('id', '=', alert.project_id).executeTakeFirst();
  if (!project) return;
  const namespace = await deps.db.selectFrom('namespaces').selectAll().where('id', '=', project.namespace_id).executeTakeFirstOrThrow();
  // The project's team with each member's level (platform/auth/membership-queries.ts).
  const { rows: team } = await projectTeamLevelsSql(Number(project.id), Number(namespace.id), deps.clock.now()).execute(deps.db);
  const levels = new Map(team.map((row) => [Number(row.user_id), Number(row.level)]));
  const ids = [...levels.keys()];
  const users = ids.length ? await deps.db.selectFrom('users').selectAll().where('id', 'in', ids).where('state', '=', 'active').where('user_type', '=', 'human').execute() : [];
  const addresses = await addressesOf(deps, users);
  const recipients = [];
  for (const user of users) {
    const authUser = toAuthUser(user);
    const level = levelOn(authUser, namespace, levels.get(Number(user.id)) ?? 0);
    const address = addresses.get(Number(user.id))!;
    if (canOnProject({ user: authUser, level, visibility: project.visibility, features: project }, 'admin_operations') && deliverable(address)) recipients.push({ user, address });
  }
  if (recipients.length === 0) return;
  const url = `${deps.config.baseUrl}/${project.full_path}/-/alert_management/${alert.iid}/details`;
  const severity = titleCase(severityName(alert.severity));
  const facts: Array<[string, string]> = [
    ['Start time', isoTime(alert.started_at) ?? ''],
    ['Severity', severity],
    ...(alert.service ? [['Service', alert.service] as [string, string]] : []),
    ...(alert.monitoring_tool ? [['Monitoring tool', alert.monitoring_tool] as [string, string]] : []),
    ...(alert.description ? [['Description', alert.description] as [string, string]] : []),
  ];
  const text = `An alert has been triggered in ${project.full_path}.\n\n${alert.title}\n\n${facts.map(([name, value]) => `${name}: ${value}`).join('\n')}\n\nView the alert: ${url}\n`;
  const body = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${alert.title}</title></head>
<body style="font-family: sans-serif; color: #333"><p>An alert has been triggered in ${project.full_path}.</p>
<h1 style="font-size: 1.2em">${alert.title}</h1>
<table>${facts.map(([name, value]) => html`<tr><th style="text-align: left; padding-right: 1em">${name}</th><td>${value}</td></tr>`)}</table>
<p><a href="${url}">View the alert</a></p></body></html>`.value;
  const host = mailHost(deps);
  const messages: OutgoingEmail[] = recipients.map(({ user, address }) => ({
    from: fromHeader(deps, null),
    to: address,
    userId: Number(user.id),
    subject: `${project.name} | Alert: ${alert.title}`,
    messageId: `alert_${alert.id}@${host}`,
    headers: {
      'X-GitLab-Project': project.name,
      'X-GitLab-Project-Id': String(project.id),
      'X-GitLab-Project-Path': project.full_path,
      'X-GitLab-Alert-ID': String(alert.id),
      'X-GitLab-Alert-IID': String(alert.iid),
      'List-Id': listId(deps, project),
      'Auto-Submitted': 'auto-generated',
      'X-Auto-Response-Suppress': 'All',
    },
    text,
    html: body,
  }));
  await inTransaction(deps.db, (trx) => queueEmails(deps, trx, messages, job.id));
  deps.pokeWorker();
}
