// One alert's details (GitLab's alert management documentation): every field, the raw payload, status
// change, "Create incident" and the notes timeline. Every alert field is escaped.
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { isoTime } from '../platform/clock.js';
import { html, raw } from '../platform/web/html.js';
import { projectSidebar } from '../platform/web/project-nav.js';
import { canOnProject } from '../platform/auth/policies/policy.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { createAlertNote } from './create-alert-note.js';
import { csrfField, type PageContext } from '../platform/web/page-route.js';
import { page, redirect } from '../platform/web/page.js';
import { usersById } from '../issues/api.js';
import { STATUSES, STATUS_DESCRIPTIONS, severityName, statusName, titleCase, type AlertStatus } from './model.js';
import { alertNotes, findAlert } from './finder.js';
import { incidentIids } from './entities.js';
import { updateAlertStatus } from './update-alert-status.js';
import { createIncidentForAlert } from './create-incident.js';
import { field } from './form-field.js';
import { ValidationError } from '../platform/errors.js';

export const DETAILS_PATTERN = /^(?<path>.+?)\/-\/alert_management\/(?<iid>\d{1,9})\/details$/;

export async function renderAlertDetails(context: PageContext, access: ProjectAccess) {
  const { deps } = context;
  const alert = await findAlert(deps.db, access.project.id, Number(context.match.iid));
  const [incidents, notes] = await Promise.all([incidentIids(deps, [alert]), alertNotes(deps.db, Number(alert.id))]);
  const users = await usersById(deps.db, notes.map((note) => note.author_id));
  // Comments are Markdown (references for this viewer); system notes are our own short sentences.
  const noteBodies = new Map(await Promise.all(notes.filter((note) => !note.system).map(async (note) => [Number(note.id), await renderGitlabMarkdown(deps, note.body, { project: access })] as const)));
  const incidentIid = alert.issue_id === null ? null : incidents.get(Number(alert.issue_id));
  const self = `/${access.project.full_path}/-/alert_management/${alert.iid}/details`;
  const status = statusName(alert.status);
  const hosts = JSON.parse(alert.hosts) as string[];
  const row = (label: string, value: unknown) => html`<tr><th>${label}</th><td>${value === null || value === undefined || value === '' ? html`<span class="muted">none</span>` : String(value)}</td></tr>`;
  const body = html`
    <p><a href="/${access.project.full_path}/-/alert_management">All alerts</a> · alert#${alert.iid}</p>
    <table id="alert-fields">
      ${row('Title', alert.title)}${row('Status', titleCase(status))}${row('Severity', titleCase(severityName(alert.severity)))}
      ${row('Start time', isoTime(alert.started_at))}${row('End time', isoTime(alert.ended_at))}${row('Events', alert.events)}
      ${row('Description', alert.description)}${row('Service', alert.service)}${row('Monitoring tool', alert.monitoring_tool)}
      ${row('Hosts', hosts.join(', '))}${row('Environment', alert.environment_name === null ? null : alert.linked_environment_name === null ? `${alert.environment_name} (no such environment)` : alert.linked_environment_name)}${row('Fingerprint', alert.fingerprint)}
      ${row('Created', isoTime(alert.created_at))}${row('Updated', isoTime(alert.updated_at))}
      <tr><th>Incident</th><td>${incidentIid ? html`<a href="/${access.project.full_path}/-/issues/${incidentIid}" id="incident-link">#${incidentIid}</a>` : html`<form method="post" action="${self}" class="inline">${csrfField(context)}<input type="hidden" name="action" value="incident"><button type="submit">Create incident</button></form>`}</td></tr>
    </table>
    <h2>Status</h2>
    <form method="post" action="${self}" class="inline">${csrfField(context)}<input type="hidden" name="action" value="status">
      <select name="status" aria-label="Status">${STATUSES.map((name) => html`<option value="${name}"${name === status ? html` selected` : ''}>${titleCase(name)} — ${STATUS_DESCRIPTIONS[name]}</option>`)}</select>
      <button type="submit">Change status</button>
    </form>
    <h2>Raw payload</h2>
    <pre id="payload">${JSON.stringify(JSON.parse(alert.payload), null, 2)}</pre>
    <h2>Notes</h2>
    <ul id="notes">${notes.map((note) => html`<li${note.system ? '' : html` class="comment"`}><strong>${users.get(Number(note.author_id))?.name ?? 'Someone'}</strong> ${note.system ? note.body.replace(/\*\*/g, '') : html`<div class="markdown">${raw(noteBodies.get(Number(note.id)) ?? '')}</div>`} <span class="muted">${isoTime(note.created_at)}</span></li>`)}</ul>
    ${canOnProject(access, 'update_alert_management_alert') ? html`<form method="post" action="${self}" class="stacked" id="alert-comment">${csrfField(context)}<input type="hidden" name="action" value="comment"><label for="alert-note">Add a comment</label><textarea id="alert-note" name="note" required></textarea><button type="submit">Comment</button></form>` : ''}`;
  return page({ title: `${alert.title} · Alerts · ${access.project.name}`, heading: html`<h1>${alert.title}</h1>`, body, sidebar: projectSidebar(access, 'alerts') });
}

export async function handleAlertDetailsPost(context: PageContext, access: ProjectAccess) {
  const { deps, form } = context;
  const alert = await findAlert(deps.db, access.project.id, Number(context.match.iid));
  const self = `/${access.project.full_path}/-/alert_management/${alert.iid}/details`;
  if (field(form, 'action') === 'comment') {
    try {
      await createAlertNote(deps, context.user.id, { id: Number(alert.id), project_id: Number(alert.project_id) }, field(form, 'note'));
    } catch (error) {
      if (error instanceof ValidationError) return redirect(self, 'Error: the comment is empty.');
      throw error;
    }
    return redirect(self, 'Comment added.');
  }
  if (field(form, 'action') === 'incident') {
    const result = await createIncidentForAlert(deps, context.user.id, alert);
    return redirect(self, result.created ? `Incident #${result.iid} created.` : `This alert already has incident #${result.iid}.`);
  }
  const wanted = field(form, 'status');
  if (!(STATUSES as readonly string[]).includes(wanted)) return redirect(self, 'Error: unknown status.');
  try {
    await updateAlertStatus(deps, context.user.id, access, alert, wanted as AlertStatus);
  } catch (error) {
    if (error instanceof ValidationError) return redirect(self, 'Error: another alert with the same fingerprint is open.');
    throw error;
  }
  return redirect(self, `Status changed to ${titleCase(wanted)}.`);
}
