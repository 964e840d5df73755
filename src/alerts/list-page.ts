// The alert list (GitLab's alert management documentation): tabs per status with counts, search, sorting, and
// severity, start time, event count and status per alert. Every alert field is escaped.
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { isoTime } from '../platform/clock.js';
import { html } from '../platform/web/html.js';
import { projectSidebar } from '../platform/web/project-nav.js';
import type { PageContext } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { severityName, statusName, titleCase, type AlertStatus } from './model.js';
import { ALERT_SORTS, alertStatusCounts, projectAlertsQuery, type AlertSort } from './finder.js';
import { incidentSettings } from './incident-settings.js';

export const LIST_PATTERN = /^(?<path>.+?)\/-\/alert_management$/;
const TABS = ['open', 'triggered', 'acknowledged', 'resolved', 'ignored', 'all'] as const;
const PER_PAGE = 20;
const SORT_LABELS: Partial<Record<AlertSort, string>> = {
  started_at_desc: 'Start time, newest first', started_at_asc: 'Start time, oldest first', severity_desc: 'Severity, most critical first',
  severity_asc: 'Severity, least critical first', event_count_desc: 'Events, most first', event_count_asc: 'Events, fewest first',
  status_desc: 'Status', updated_at_desc: 'Last updated',
};

export async function renderAlertList(context: PageContext, access: ProjectAccess) {
  const { deps, query } = context;
  const tab = (TABS as readonly string[]).includes(query.status) ? (query.status as (typeof TABS)[number]) : 'open';
  const sort = (ALERT_SORTS as readonly string[]).includes(query.sort) ? (query.sort as AlertSort) : 'started_at_desc';
  const search = typeof query.search === 'string' ? query.search.slice(0, 255) : '';
  const pageNumber = Math.max(1, Math.min(1000, Number.parseInt(query.page ?? '1', 10) || 1));
  const root = `/${access.project.full_path}/-/alert_management`;
  const [counts, rows, settings] = await Promise.all([
    alertStatusCounts(deps.db, access.project.id, search || undefined),
    projectAlertsQuery(deps, access.project.id, { status: tab as AlertStatus | 'open' | 'all', search: search || undefined, sort }).limit(PER_PAGE + 1).offset((pageNumber - 1) * PER_PAGE).execute(),
    incidentSettings(deps.db, access.project.id),
  ]);
  const link = (overrides: Record<string, string | number>) => {
    const params = new URLSearchParams({ status: tab, sort, ...(search ? { search } : {}), ...Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, String(v)])) });
    return `${root}?${params}`;
  };
  const body = html`
    ${settings.alertingToolActive && settings.alertingToolUrl ? html`<p class="muted">Alerts are managed in the incident alerting tool: <a href="${settings.alertingToolUrl}" rel="noreferrer">open it</a> (this link is deprecated since 13.8).</p>` : ''}
    <nav class="tabs" id="alert-tabs" data-live="5" aria-label="Alerts by status">${TABS.map((name) => html`<a href="${link({ status: name, page: 1 })}" class="${name === tab ? 'active' : ''}" data-tab="${name}">${titleCase(name)} <span class="badge">${counts[name]}</span></a>`)}</nav>
    <form method="get" action="${root}" class="inline">
      <input type="hidden" name="status" value="${tab}">
      <input type="text" name="search" value="${search}" placeholder="Search title, description, service, tool" aria-label="Search">
      <select name="sort" aria-label="Sort">${Object.entries(SORT_LABELS).map(([value, label]) => html`<option value="${value}"${value === sort ? html` selected` : ''}>${label}</option>`)}</select>
      <button type="submit" class="secondary">Apply</button>
    </form>
    <p class="live-status muted" aria-live="polite">This list updates as alerts arrive.</p>
    <div id="alert-list" data-live="5">
    ${rows.length === 0 ? html`<p class="muted">No alerts to show.</p>` : html`<table id="alerts"><thead><tr><th>Severity</th><th>Start time</th><th>Alert</th><th>Events</th><th>Status</th></tr></thead><tbody>
      ${rows.slice(0, PER_PAGE).map((alert) => html`<tr>
        <td>${titleCase(severityName(alert.severity))}</td>
        <td><time datetime="${isoTime(alert.started_at)}">${isoTime(alert.started_at)}</time></td>
        <td><a href="${root}/${alert.iid}/details">${alert.title}</a> <span class="muted">alert#${alert.iid}</span></td>
        <td>${alert.events}</td>
        <td class="status">${titleCase(statusName(alert.status))}</td>
      </tr>`)}
    </tbody></table>`}
    </div>
    <p>${pageNumber > 1 ? html`<a href="${link({ page: pageNumber - 1 })}">Previous</a> ` : ''}${rows.length > PER_PAGE ? html`<a href="${link({ page: pageNumber + 1 })}">Next</a>` : ''}</p>
    <p><a href="/${access.project.full_path}/-/settings/operations">Alert settings</a></p>`;
  return page({ title: `Alerts · ${access.project.name}`, heading: html`<h1>Alerts <span class="muted">· ${access.project.name}</span></h1>`, body, sidebar: projectSidebar(access, 'alerts') });
}
