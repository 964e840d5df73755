// What the issue pages share: the state badge, an author line, dates as people read them.
import { isoTime } from '../../platform/clock.js';
import { html, type Html } from '../../platform/web/html.js';
import type { Deps } from '../../platform/deps.js';
import type { IssueRow, Users } from '../entities.js';

export function stateBadge(issue: Pick<IssueRow, 'state'>): Html {
  return issue.state === 'opened' ? html`<span class="badge state-open">Open</span>` : html`<span class="badge state-closed">Closed</span>`;
}

export function confidentialBadge(issue: Pick<IssueRow, 'confidential'>): Html {
  return issue.confidential ? html`<span class="badge confidential" title="Only project members with at least the Reporter role, the author, and assignees can view or be notified about this issue.">Confidential</span>` : html``;
}

export function authorLink(users: Users, id: number | null): Html {
  const user = id === null ? undefined : users.get(Number(id));
  return user ? html`<a href="/${user.username}">${user.name}</a>` : html`<span class="muted">a deleted user</span>`;
}

export function when(ms: number | null): Html {
  const iso = isoTime(ms);
  return iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>` : html``;
}

/** `incident` pages are the issue pages of incidents: the same URLs, another list. */
export function kindOf(issueType: string): { plural: string; singular: string; list: string } {
  return issueType === 'incident' ? { plural: 'Incidents', singular: 'Incident', list: 'incidents' } : { plural: 'Issues', singular: 'Issue', list: 'issues' };
}

/** The full paths of the projects of a page's rows, by id, in one statement. */
export async function projectPaths(deps: Deps, rows: IssueRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((row) => Number(row.project_id)))];
  if (ids.length === 0) return new Map();
  const projects = await deps.db.selectFrom('projects').select(['id', 'full_path']).where('id', 'in', ids).execute();
  return new Map(projects.map((project) => [Number(project.id), project.full_path]));
}
