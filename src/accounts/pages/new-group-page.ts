// /groups/new (GitLab's New group and New subgroup): name, path, visibility, description; a subgroup
// when `parent_id` names a group the user may create subgroups in (the action asks, as the API does).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { html } from '../../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { ForbiddenError, NotFoundError } from '../../platform/errors.js';
import { createGroup } from '../create-group.js';
import { canOnInstance } from '../../platform/auth/policies/policy.js';
import { readApplicationSettings } from '../../application-settings/api.js';
import { field, validationMessage, visibilityOf, visibilityRadios } from './form-helpers.js';

async function renderForm(context: PageContext, values: Record<string, string>, error?: string, status = 200) {
  const parentId = values.parent_id ?? context.query.parent_id ?? '';
  const body = html`
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/groups/new" class="stacked" id="new-group">
${csrfField(context)}
${/^\d+$/.test(parentId) ? html`<input type="hidden" name="parent_id" value="${parentId}">` : ''}
<label for="group-name">Group name</label><input type="text" id="group-name" name="name" value="${values.name ?? ''}" required maxlength="255">
<label for="group-path">Group URL</label><input type="text" id="group-path" name="path" value="${values.path ?? ''}" required maxlength="255">
<label for="group-description">Description (optional)</label><textarea id="group-description" name="description">${values.description ?? ''}</textarea>
${visibilityRadios(values.visibility || (await readApplicationSettings(context.deps.db)).default_group_visibility)}
<button type="submit">Create group</button>
</form>`;
  return page({ title: /^\d+$/.test(parentId) ? 'New subgroup' : 'New group', body, status });
}

export function newGroupPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: '/groups/new', ability: { instance: 'log_in' }, handler: async (context) => renderForm(context, {}) });
  pageRoute(app, deps, {
    // Top-level groups need create_group; subgroups create_subgroup on the parent (checked by the action).
    method: 'POST', url: '/groups/new', ability: { instance: 'log_in' },
    handler: async (context) => {
      const values = Object.fromEntries(['name', 'path', 'parent_id', 'description', 'visibility'].map((name) => [name, field(context.form, name)]));
      const principal = { user: context.user, scopes: ['api'], via: 'session' as const, tokenId: null };
      try {
        const parentId = /^\d+$/.test(values.parent_id) ? Number(values.parent_id) : undefined;
        if (parentId === undefined && !canOnInstance(context.user, 'create_group')) throw new ForbiddenError();
        const group = await createGroup(deps, principal, { name: values.name, path: values.path.trim(), parentId, visibility: values.visibility ? visibilityOf(values.visibility) : undefined, description: values.description });
        return redirect(`/groups/${group.full_path}`, `Group '${group.name}' was successfully created.`);
      } catch (error) {
        if (error instanceof NotFoundError || error instanceof ForbiddenError) return renderForm(context, values, values.parent_id ? 'You may not create a subgroup in this group.' : 'You may not create groups.', 403);
        const message = validationMessage(error);
        if (message) return renderForm(context, values, message, 400);
        throw error;
      }
    },
  });
}
