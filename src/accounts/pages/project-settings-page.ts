// A project's general settings at `/<project>/edit` (GitLab's Settings › General): name, description,
// visibility and avatar for Maintainers (renaming and visibility ask their own abilities in the
// action), and deleting the project, with a confirmation, for Owners (remove_project).
import { html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { ForbiddenError } from '../../platform/errors.js';
import { updateProject } from '../update-project.js';
import { deleteProject } from '../delete-project.js';
import { uploadedAvatarUrl } from '../avatar-urls.js';
import { fieldErrorsOf, type FieldErrors } from '../settings/shared.js';
import { field, validationMessage, visibilityOf, visibilityRadios } from './form-helpers.js';
import { avatarField, avatarFromForm } from '../settings/avatar-field.js';

export const PROJECT_EDIT_PATTERN = /^(?<path>(?:(?!\/-\/).)+?)\/edit$/;

export function renderProjectSettings(context: PageContext, access: ProjectAccess, values: Record<string, string> = {}, error?: string, status = 200, errors: FieldErrors = {}) {
  const { project } = access;
  const self = `/${project.full_path}/edit`;
  const mayChangeVisibility = canOnProject(access, 'change_visibility_level');
  const body = html`
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<h2>Naming, description, visibility</h2>
<form method="post" action="${self}" class="stacked" id="project-settings" enctype="multipart/form-data">
${csrfField(context)}<input type="hidden" name="action" value="update">
<label for="project-name">Project name</label><input type="text" id="project-name" name="name" value="${values.name ?? project.name}" required maxlength="255"${canOnProject(access, 'rename_project') ? '' : html` readonly`}>
<label for="project-description">Project description (optional)</label><textarea id="project-description" name="description">${values.description ?? project.description}</textarea>
${mayChangeVisibility ? visibilityRadios(values.visibility ?? project.visibility) : ''}
${avatarField({ legend: 'Project avatar', id: 'project-avatar', current: uploadedAvatarUrl('', 'project', Number(project.id), project.avatar), removable: true, errors })}
<button type="submit">Save changes</button>
</form>
${
  canOnProject(access, 'remove_project')
    ? html`<h2>Delete project</h2>
<p>Deleting the project removes its repository, issues, alerts and all related resources. This cannot be undone.</p>
<form method="post" action="${self}" class="stacked" id="delete-project" data-confirm="Delete ${project.full_path}? This cannot be undone.">
${csrfField(context)}<input type="hidden" name="action" value="delete">
<label for="confirm-path">Enter <code>${project.full_path}</code> to confirm</label><input type="text" id="confirm-path" name="confirm_path" required autocomplete="off">
<button type="submit" class="danger">Delete project</button>
</form>`
    : ''
}`;
  return page({ title: `General settings · ${project.name}`, heading: html`<h1>General settings</h1>`, body, status, sidebar: projectSidebar(access, 'settings') });
}

export async function handleProjectSettings(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, form } = context;
  const { project } = access;
  if (field(form, 'action') === 'delete') {
    if (!canOnProject(access, 'remove_project')) throw new ForbiddenError();
    if (field(form, 'confirm_path').trim() !== project.full_path) return renderProjectSettings(context, access, {}, `Enter ${project.full_path} exactly to delete the project.`, 400);
    await deleteProject(deps, project, access.user?.id ?? null);
    return redirect('/', `Project '${project.name}' was deleted.`);
  }
  const values = { name: field(form, 'name'), description: field(form, 'description'), visibility: field(form, 'visibility') };
  try {
    await updateProject(deps, access, {
      name: values.name.trim() !== project.name ? values.name : undefined,
      settings: { description: values.description !== project.description ? values.description : undefined },
      visibility: values.visibility && visibilityOf(values.visibility) !== project.visibility ? visibilityOf(values.visibility) : undefined,
      avatar: avatarFromForm(context),
    });
    return redirect(`/${project.full_path}/edit`, `Project '${values.name.trim() || project.name}' was successfully updated.`);
  } catch (error) {
    const message = validationMessage(error);
    if (message) return renderProjectSettings(context, access, values, message, 400, fieldErrorsOf(error) ?? {});
    throw error;
  }
}
