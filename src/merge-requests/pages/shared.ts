// What the merge request pages share: the state badge, people as links, the merge request of the
// path with its target project's settings, and the sidebar with the open count.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess, ProjectRow } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { NotFoundError } from '../../platform/errors.js';
import type { MergeRequestRow } from '../rows.js';
import type { Users } from '../entities.js';
import { fullProject } from '../finder.js';
import { projectMergeRequestsQuery } from '../merge-requests-queries.js';
import { findReadableMergeRequest } from '../review/merge-request-noteable.js';

const STATES: Record<string, [string, string]> = {
  opened: ['Open', 'state-open'],
  locked: ['Merging', 'state-open'],
  merged: ['Merged', 'state-merged'],
  closed: ['Closed', 'state-closed'],
};

export function mrStateBadge(mr: Pick<MergeRequestRow, 'state'>): Html {
  const [label, kind] = STATES[mr.state] ?? [mr.state, ''];
  return html`<span class="badge ${kind}" data-state="${mr.state}">${label}</span>`;
}

export function userLink(users: Users, id: number | null | undefined): Html {
  const user = id === null || id === undefined ? undefined : users.get(Number(id));
  return user ? html`<a href="/${user.username}">${user.name}</a>` : html`<span class="muted">a deleted user</span>`;
}

/** `/group/project/-/merge_requests`, the root of every merge request page of the project. */
export function mergeRequestsRoot(access: ProjectAccess): string {
  return `/${access.project.full_path}/-/merge_requests`;
}

export async function openCount(deps: Deps, access: ProjectAccess): Promise<number> {
  const row = await projectMergeRequestsQuery(deps, Number(access.project.id), { state: 'opened' }, null).clearSelect().clearOrderBy().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The project's sidebar with Merge requests current and its open count beside it. */
export async function mergeRequestSidebar(deps: Deps, access: ProjectAccess): Promise<Html> {
  return projectSidebar(access, 'merge_requests', { mergeRequests: await openCount(deps, access) });
}

/** The merge request of the path (404 for those who may not read it) and its target with every setting. */
export async function loadMergeRequest(deps: Deps, access: ProjectAccess, iid: string | undefined): Promise<{ mr: MergeRequestRow; target: ProjectRow }> {
  const mr = await findReadableMergeRequest(deps, access, Number(iid));
  const target = await fullProject(deps.db, Number(access.project.id));
  if (!target) throw new NotFoundError('Project');
  return { mr, target };
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';
}
