// The members pages of a project (`/-/project_members`) and a group (`/groups/<path>/-/group_members`):
// direct members with their roles; adding, changing a role and removing for those with
// admin_*_member, leaving for members themselves; the groups it is shared with (shared-groups-section.ts).
// The same actions as the members API.
import { html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar, groupSidebar } from '../../platform/web/project-nav.js';
import { belongsTo, canOnGroup, canOnProject } from '../../platform/auth/policies/policy.js';
import type { GroupAccess, ProjectAccess } from '../../platform/auth/subjects.js';
import type { PolicySubject } from '../../platform/auth/policies/index.js';
import { VALID_MEMBER_LEVELS } from '../../platform/auth/access-levels.js';
import { isoTime } from '../../platform/clock.js';
import { ValidationError } from '../../platform/errors.js';
import type { MemberSource } from '../member-source.js';
import { listMembersQuery } from '../members-finder.js';
import { createMember } from '../create-member.js';
import { updateMember } from '../update-member.js';
import { destroyMember } from '../destroy-member.js';
import { findUserRow } from '../lookup.js';
import { field } from './form-helpers.js';
import { handleShareAction, sharedGroupsHtml, type SharedSubject } from './shared-groups-section.js';
import { accessRequestsQuery, approveAccessRequest, denyAccessRequest, findAccessRequest, groupRequestTarget, mayRequestAccess, projectRequestTarget, requestAccess, type RequestTarget } from '../access-requests.js';

export const PROJECT_MEMBERS_PATTERN = /^(?<path>.+?)\/-\/project_members$/;
export const GROUP_MEMBERS_PATTERN = /^groups\/(?<path>.+?)\/-\/group_members$/;

const ROLE_NAMES: Record<number, string> = { 10: 'Guest', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };

interface Target {
  source: MemberSource;
  actor: PolicySubject;
  self: string;
  name: string;
  mayAdmin: boolean;
  sidebar: ReturnType<typeof projectSidebar>;
  requests: RequestTarget;
  shared: SharedSubject;
}

export function projectTarget(access: ProjectAccess): Target {
  return { source: { type: 'Project', id: Number(access.project.id) }, actor: access, self: `/${access.project.full_path}/-/project_members`, name: access.project.name, mayAdmin: canOnProject(access, 'admin_project_member'), sidebar: projectSidebar(access, 'members'), requests: projectRequestTarget(access), shared: { kind: 'project', access } };
}

export function groupTarget(access: GroupAccess): Target {
  return { source: { type: 'Namespace', id: Number(access.group.id) }, actor: access, self: `/groups/${access.group.full_path}/-/group_members`, name: access.group.name, mayAdmin: canOnGroup(access, 'admin_group_member'), sidebar: groupSidebar(access, 'members'), requests: groupRequestTarget(access), shared: { kind: 'group', access } };
}

function roleSelect(id: string, current: number) {
  return html`<select id="${id}" name="access_level">${VALID_MEMBER_LEVELS.map((level) => html`<option value="${level}"${level === current ? html` selected` : ''}>${ROLE_NAMES[level] ?? level}</option>`)}</select>`;
}

/** The pending requests with Approve (as the chosen role) and Deny, for those who manage members. */
async function requestsHtml(context: PageContext, target: Target) {
  if (!target.mayAdmin) return html``;
  const requests = await accessRequestsQuery(context.deps, target.source).limit(500).execute();
  if (!requests.length) return html``;
  return html`<section aria-labelledby="access-requests-title"><h2 id="access-requests-title">Access requests</h2>
<table id="access-requests"><thead><tr><th>User</th><th>Requested</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${requests.map((request) => {
    const id = Number(request.id);
    return html`<tr data-user="${request.username}"><td><a href="/${request.username}">${request.name}</a> <span class="muted">@${request.username}</span></td><td>${isoTime(Number(request.requested_at))?.slice(0, 10)}</td>
<td><form method="post" action="${target.self}" class="inline">${csrfField(context)}<input type="hidden" name="action" value="approve"><input type="hidden" name="user_id" value="${id}"><label class="visually-hidden" for="request-role-${id}">Role for ${request.username}</label>${roleSelect(`request-role-${id}`, 30)} <button type="submit">Approve</button></form>
<form method="post" action="${target.self}" class="inline" data-confirm="Deny ${request.username}'s request?">${csrfField(context)}<input type="hidden" name="action" value="deny"><input type="hidden" name="user_id" value="${id}"><button type="submit" class="danger">Deny</button></form></td></tr>`;
  })}</tbody></table></section>`;
}

/** "Request access" (or "Withdraw access request") for a signed-in visitor who may ask: the project's and group's pages and the members page show it. */
export async function requestAccessHtml(context: { deps: PageContext['deps']; session: PageContext['session'] }, target: RequestTarget, self: string) {
  const user = target.access.user;
  // Members (and administrators) have nothing to ask, and no request left: adding a member ends theirs.
  if (!user || user.admin || belongsTo(target.access)) return html``;
  const pending = await findAccessRequest(context.deps, target.source, user.id);
  if (pending) {
    return html`<form method="post" action="${self}" class="inline request-access">${csrfField(context)}<input type="hidden" name="action" value="withdraw"><button type="submit" class="secondary">Withdraw access request</button></form>`;
  }
  if (!mayRequestAccess(target)) return html``;
  return html`<form method="post" action="${self}" class="inline request-access">${csrfField(context)}<input type="hidden" name="action" value="request"><button type="submit">Request access</button></form>`;
}

/** The project page's "Request access" button (or its withdrawal), posting to the members page. */
export function projectRequestAccessHtml(context: { deps: PageContext['deps']; session: PageContext['session'] }, access: ProjectAccess) {
  return requestAccessHtml(context, projectRequestTarget(access), `/${access.project.full_path}/-/project_members`);
}

/** The group page's "Request access" button (or its withdrawal), posting to the members page. */
export function groupRequestAccessHtml(context: { deps: PageContext['deps']; session: PageContext['session'] }, access: GroupAccess) {
  return requestAccessHtml(context, groupRequestTarget(access), `/groups/${access.group.full_path}/-/group_members`);
}

export async function renderMembers(context: PageContext, target: Target, error?: string, status = 200) {
  const members = await listMembersQuery(context.deps, target.source).limit(500).execute();
  const body = html`
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
${await requestAccessHtml(context, target.requests, target.self)}
${await requestsHtml(context, target)}
${
  target.mayAdmin
    ? html`<form method="post" action="${target.self}" class="actions" id="add-member">${csrfField(context)}<input type="hidden" name="action" value="add">
<label for="member-username">Username</label><input type="text" id="member-username" name="username" required>
<label for="member-role">Role</label>${roleSelect('member-role', 10)}
<button type="submit">Invite</button></form>`
    : ''
}
<table id="members"><thead><tr><th>Member</th><th>Role</th><th>Since</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${members.map((member) => {
    const id = Number(member.id);
    const own = id === context.user?.id;
    return html`<tr data-user="${member.username}"><td><a href="/${member.username}">${member.name}</a> <span class="muted">@${member.username}</span></td>
<td>${target.mayAdmin
      ? html`<form method="post" action="${target.self}" class="inline">${csrfField(context)}<input type="hidden" name="action" value="update"><input type="hidden" name="user_id" value="${id}"><label class="visually-hidden" for="role-${id}">Role of ${member.username}</label>${roleSelect(`role-${id}`, Number(member.access_level))} <button type="submit" class="secondary">Change role</button></form>`
      : html`<span class="role">${ROLE_NAMES[Number(member.access_level)] ?? member.access_level}</span>`}</td>
<td>${isoTime(member.created_at)?.slice(0, 10)}</td>
<td>${target.mayAdmin || own ? html`<form method="post" action="${target.self}" class="inline" data-confirm="${own ? 'Leave?' : `Remove ${member.username}?`}">${csrfField(context)}<input type="hidden" name="action" value="remove"><input type="hidden" name="user_id" value="${id}"><button type="submit" class="danger">${own ? 'Leave' : 'Remove'}</button></form>` : ''}</td></tr>`;
  })}</tbody></table>
${await sharedGroupsHtml(context, target.shared, target.self)}`;
  return page({ title: `Members · ${target.name}`, heading: html`<h1>Members</h1>`, body, status, sidebar: target.sidebar });
}

/** Add, change or remove: the actions ask their own abilities (the member policy), as the API's do. */
export async function handleMembersPost(context: PageContext, target: Target): Promise<PageOutcome> {
  const { deps, form } = context;
  const action = field(form, 'action');
  const userId = Number.parseInt(field(form, 'user_id'), 10);
  const accessLevel = Number.parseInt(field(form, 'access_level'), 10);
  try {
    if (action === 'add') {
      const user = await findUserRow(deps, field(form, 'username').trim().replace(/^@/, ''));
      if (!user) return renderMembers(context, target, 'No user has that username.', 400);
      await createMember(deps, target.actor, target.source, { userId: Number(user.id), accessLevel });
      return redirect(target.self, `${user.username} was added as ${ROLE_NAMES[accessLevel] ?? accessLevel}.`);
    }
    if (action === 'update') {
      await updateMember(deps, target.actor, target.source, userId, { accessLevel });
      return redirect(target.self, 'Role updated.');
    }
    if (action === 'request') {
      await requestAccess(deps, target.requests);
      return redirect(target.self, 'Your request for access has been queued for review.');
    }
    if (action === 'withdraw') {
      await denyAccessRequest(deps, target.requests, context.user.id);
      return redirect(target.self, 'Your access request has been withdrawn.');
    }
    if (action === 'approve') {
      const { user } = await approveAccessRequest(deps, target.requests, userId, accessLevel);
      return redirect(target.self, `${user.username} was given access as ${ROLE_NAMES[accessLevel] ?? accessLevel}.`);
    }
    if (action === 'deny') {
      await denyAccessRequest(deps, target.requests, userId);
      return redirect(target.self, 'The access request was denied.');
    }
    if (action === 'share' || action === 'unshare') {
      const outcome = await handleShareAction(context, target.shared, action);
      return 'done' in outcome ? redirect(target.self, outcome.done) : renderMembers(context, target, outcome.refused, 400);
    }
    if (action === 'remove') {
      await destroyMember(deps, target.actor, target.source, userId);
      return userId === context.user.id ? redirect('/', 'You left.') : redirect(target.self, 'Member removed.');
    }
  } catch (error) {
    if (error instanceof ValidationError) return renderMembers(context, target, error.message, 400);
    throw error;
  }
  return renderMembers(context, target, 'Unknown action.', 400);
}
