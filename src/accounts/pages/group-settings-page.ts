// A group's general settings at `/groups/<group>/-/edit` (GitLab's group Settings › General), for its
// Owners (admin_group): name, path, description, visibility (change_visibility_level), whether people
// may request access, the avatar; and deleting the group (remove_group), confirmed by typing its path.
// Every change goes through the API's own actions (updateGroup, scheduleGroupDeletion), so the rules
// and messages are PUT and DELETE /groups/:id's; each refusal is shown next to its field.
import { html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { groupSidebar } from '../../platform/web/project-nav.js';
import type { GroupAccess } from '../../platform/auth/subjects.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Visibility } from '../../platform/db/tables/accounts.js';
import { updateGroup } from '../update-group.js';
import { scheduleGroupDeletion } from '../schedule-group-deletion.js';
import { uploadedAvatarUrl } from '../avatar-urls.js';
import { parseStored } from '../stored-settings.js';
import { describedBy, fieldError, submitForm, type FieldErrors } from '../settings/shared.js';
import { field, visibilityOf, visibilityRadios } from './form-helpers.js';
import { avatarField, avatarFromForm } from '../settings/avatar-field.js';
import { readApplicationSettings } from '../../application-settings/api.js';
import { canOnGroup, canOnInstance } from '../../platform/auth/policies/policy.js';

export const GROUP_EDIT_PATTERN = /^groups\/(?<path>.+?)\/-\/edit$/;

interface Values {
  name: string;
  path: string;
  description: string;
  visibility: string;
  request_access_enabled: boolean;
}

function valuesOf(access: GroupAccess): Values {
  const { group } = access;
  return { name: group.name, path: group.path, description: group.description ?? '', visibility: group.visibility, request_access_enabled: parseStored(group.settings).request_access_enabled !== false };
}

export async function renderGroupSettings(context: PageContext, access: GroupAccess, values: Values = valuesOf(access), errors: FieldErrors = {}, deleteError?: string): Promise<PageOutcome> {
  const { group } = access;
  // The levels the administrator restricted (GitLab's restricted_visibility_levels) bind all but administrators.
  const restricted = canOnInstance(context.user, 'admin_all_resources') ? [] : (await readApplicationSettings(context.deps.db)).restricted_visibility_levels;
  const self = `/groups/${group.full_path}/-/edit`;
  const failed = Object.keys(errors).length > 0 || deleteError !== undefined;
  const body = html`
${Object.keys(errors).length ? html`<p class="error" role="alert">The group was not saved: correct the fields marked below.</p>` : ''}
<h2>Naming, visibility</h2>
<form method="post" action="${self}" class="stacked" id="group-settings" enctype="multipart/form-data">
${csrfField(context)}<input type="hidden" name="action" value="update">
<label for="group-name">Group name</label><input type="text" id="group-name" name="name" value="${values.name}" required maxlength="255"${describedBy(errors, 'name')}>${fieldError(errors, 'name', 'Name')}
<label for="group-path">Group URL</label><input type="text" id="group-path" name="path" value="${values.path}" required maxlength="255" autocomplete="off"${describedBy(errors, 'path')}>${fieldError(errors, 'path', 'Path')}
<p class="muted">Changing the URL moves every project and subgroup below it; the old addresses keep redirecting.</p>
<label for="group-description">Group description (optional)</label><textarea id="group-description" name="description"${describedBy(errors, 'description')}>${values.description}</textarea>${fieldError(errors, 'description', 'Description')}
${canOnGroup(access, 'change_visibility_level') ? html`${visibilityRadios(values.visibility, restricted)}${fieldError(errors, 'visibility_level', 'Visibility level')}` : ''}
<fieldset><legend>Membership</legend><p><input type="checkbox" id="request-access" name="request_access_enabled" value="1"${values.request_access_enabled ? html` checked` : ''}> <label for="request-access">Let users request access</label> <span class="muted">Users who are not members can ask to join the group.</span></p></fieldset>
${avatarField({ legend: 'Group avatar', id: 'group-avatar', current: uploadedAvatarUrl('', 'group', Number(group.id), group.avatar), removable: true, errors })}
<p><button type="submit">Save changes</button></p>
</form>
${
  canOnGroup(access, 'remove_group')
    ? html`<h2>Delete group</h2>
<p>Deleting the group removes its subgroups and projects, with their repositories, issues and everything in them. This cannot be undone.</p>
<form method="post" action="${self}" class="stacked" id="delete-group">
${csrfField(context)}<input type="hidden" name="action" value="delete">
<label for="confirm-path">Enter <code>${group.full_path}</code> to confirm</label><input type="text" id="confirm-path" name="confirm_path" required autocomplete="off"${deleteError ? html` aria-invalid="true" aria-describedby="confirm_path-error"` : ''}>
${deleteError ? html`<p class="field-error" id="confirm_path-error">${deleteError}</p>` : ''}
<button type="submit" class="danger">Delete group</button>
</form>`
    : ''
}`;
  return page({ title: `General settings · ${group.name}`, heading: html`<h1>General settings</h1>`, body, status: failed ? 400 : 200, sidebar: groupSidebar(access, 'settings') });
}

function principalOf(context: PageContext): Principal {
  return { user: context.user, scopes: ['api'], via: 'session', tokenId: null };
}

export async function handleGroupSettings(context: PageContext, access: GroupAccess): Promise<PageOutcome> {
  const { deps, form } = context;
  const { group } = access;
  if (field(form, 'action') === 'delete') {
    const remover = await context.group('remove_group');
    if (field(form, 'confirm_path').trim() !== group.full_path) return renderGroupSettings(context, access, undefined, {}, `Enter ${group.full_path} exactly to delete the group.`);
    await scheduleGroupDeletion(deps, principalOf(context), remover);
    return redirect('/', `Group '${group.name}' is being deleted.`);
  }
  const values: Values = { name: field(form, 'name'), path: field(form, 'path').trim(), description: field(form, 'description'), visibility: field(form, 'visibility'), request_access_enabled: field(form, 'request_access_enabled') === '1' };
  let saved = group;
  return submitForm(
    async () => {
      const visibility: Visibility | undefined = values.visibility && visibilityOf(values.visibility) !== group.visibility ? visibilityOf(values.visibility) : undefined;
      saved = await updateGroup(deps, access, {
        name: values.name.trim() !== group.name ? values.name : undefined,
        path: values.path !== group.path ? values.path : undefined,
        description: values.description !== (group.description ?? '') ? values.description : undefined,
        visibility,
        avatar: avatarFromForm(context),
        stored: { request_access_enabled: values.request_access_enabled },
      });
    },
    (errors) => renderGroupSettings(context, access, values, errors),
    () => redirect(`/groups/${saved.full_path}/-/edit`, `Group '${saved.name}' was successfully updated.`),
  );
}
