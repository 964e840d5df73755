// The members pages' "Invite a group" section: the groups the project or group is shared with, with
// Remove for those who may share (admin_project, admin_group: the API's abilities), and a form to
// invite one by its full path. The same actions as POST/DELETE …/share (share-group.ts, share-project.ts).
import { html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { canOnGroup, canOnProject } from '../../platform/auth/policies/policy.js';
import type { GroupAccess, ProjectAccess } from '../../platform/auth/subjects.js';
import type { Principal } from '../../platform/auth/principal.js';
import { ROLE_NAMES, VALID_MEMBER_LEVELS } from '../../platform/auth/access-levels.js';
import { ConflictError, NotFoundError, ParamError, StatusError } from '../../platform/errors.js';
import { findGroupRow } from '../lookup.js';
import { sharedWithGroups } from '../group-links.js';
import { shareGroup, unshareGroup } from '../share-group.js';
import { shareProject, unshareProject } from '../share-project.js';
import { field } from './form-helpers.js';

/** What is shared: a project or a group, as the members page found it. */
export type SharedSubject = { kind: 'project'; access: ProjectAccess } | { kind: 'group'; access: GroupAccess };

function mayShare(subject: SharedSubject): boolean {
  return subject.kind === 'project' ? canOnProject(subject.access, 'admin_project') : canOnGroup(subject.access, 'admin_group');
}

function sharedKey(subject: SharedSubject) {
  return subject.kind === 'project' ? { projectId: Number(subject.access.project.id) } : { groupId: Number(subject.access.group.id) };
}

export async function sharedGroupsHtml(context: PageContext, subject: SharedSubject, self: string) {
  const links = await sharedWithGroups(context.deps, context.user ?? null, sharedKey(subject));
  const admin = mayShare(subject);
  if (!admin && links.length === 0) return html``;
  const form = admin
    ? html`<form method="post" action="${self}" class="actions" id="invite-group">${csrfField(context)}<input type="hidden" name="action" value="share">
<label for="share-group">Group path</label><input type="text" id="share-group" name="group_path" required>
<label for="share-role">Maximum role</label><select id="share-role" name="group_access">${VALID_MEMBER_LEVELS.map((level) => html`<option value="${level}"${level === 30 ? html` selected` : ''}>${ROLE_NAMES[level]}</option>`)}</select>
<label for="share-expires">Expires</label><input type="date" id="share-expires" name="expires_at">
<button type="submit">Invite a group</button></form>`
    : html``;
  return html`<h2>Groups</h2>
${form}
<table id="shared-groups"><thead><tr><th>Group</th><th>Maximum role</th><th>Expires</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${links.map((link) => html`<tr data-group="${link.group_full_path}"><td><a href="/groups/${link.group_full_path}">${link.group_full_path}</a></td>
<td>${ROLE_NAMES[link.group_access_level] ?? link.group_access_level}</td><td>${link.expires_at ?? ''}</td>
<td>${admin ? html`<form method="post" action="${self}" class="inline" data-confirm="Stop sharing with ${link.group_full_path}?">${csrfField(context)}<input type="hidden" name="action" value="unshare"><input type="hidden" name="group_id" value="${link.group_id}"><button type="submit" class="danger">Remove</button></form>` : ''}</td></tr>`)}</tbody></table>`;
}

/**
 * The page's `share` and `unshare` actions: the flash to redirect with, or the refusal to show (a
 * group not found, a bad role or day, a link that exists or may not be made).
 */
export async function handleShareAction(context: PageContext, subject: SharedSubject, action: 'share' | 'unshare'): Promise<{ done: string } | { refused: string }> {
  const { deps, form } = context;
  if (!mayShare(subject)) return { refused: 'You may not share this.' };
  try {
    if (action === 'unshare') {
      const groupId = Number.parseInt(field(form, 'group_id'), 10);
      if (subject.kind === 'project') await unshareProject(deps, subject.access, groupId);
      else await unshareGroup(deps, subject.access, groupId);
      return { done: 'The group no longer has access.' };
    }
    const group = await findGroupRow(deps, field(form, 'group_path').trim());
    if (!group) return { refused: 'No group has that path.' };
    const expires = field(form, 'expires_at').trim();
    if (expires !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(expires)) return { refused: 'The expiry is not a day (YYYY-MM-DD).' };
    const input = { groupId: Number(group.id), groupAccess: Number.parseInt(field(form, 'group_access'), 10), expiresAt: expires || null };
    const principal: Principal = { user: context.user, scopes: ['api'], via: 'session', tokenId: null };
    if (subject.kind === 'project') await shareProject(deps, principal, subject.access, input);
    else await shareGroup(deps, principal, subject.access, input);
    return { done: `${group.full_path} was invited.` };
  } catch (error) {
    if (error instanceof NotFoundError) return { refused: 'No group has that path.' };
    if (error instanceof ConflictError) return { refused: error.detail ?? 'Already shared.' };
    if (error instanceof ParamError || error instanceof StatusError) return { refused: error.message };
    throw error;
  }
}
