// /projects/new (GitLab's New project › Create blank project): name, path, namespace, visibility,
// description, and a first commit with README.md (checked by default, as in GitLab) and, Kiln's
// addition, a LICENSE and a .gitignore from the templates; the action asks create_projects on the
// chosen namespace, as the API does.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { html } from '../../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { canOnGroup } from '../../platform/auth/policies/policy.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { groupAccessLevel } from '../access.js';
import { visibleGroupsQuery } from '../finders.js';
import { createProject } from '../create-project.js';
import { accountHooks } from '../hooks.js';
import { findProject } from '../lookup.js';
import { readApplicationSettings } from '../../application-settings/api.js';
import { field, validationMessage, visibilityOf, visibilityRadios } from './form-helpers.js';

/** The namespaces the user may create projects in: their own, then groups that allow it. */
async function namespaceChoices(context: PageContext) {
  const { deps, user } = context;
  const own = await deps.db.selectFrom('namespaces').select(['id', 'full_path']).where('kind', '=', 'user').where('owner_id', '=', user.id).executeTakeFirst();
  const groups = await visibleGroupsQuery(deps, user, {}).limit(200).execute();
  const now = deps.clock.now();
  const allowed = [];
  for (const group of groups) {
    const level = await groupAccessLevel(deps.reads, user, group, now);
    if (canOnGroup({ user, level, visibility: group.visibility }, 'create_projects')) allowed.push(group);
  }
  return [...(own ? [{ id: Number(own.id), label: `${own.full_path} (personal)` }] : []), ...allowed.map((group) => ({ id: Number(group.id), label: group.full_path }))];
}

/** A select of the license or .gitignore templates, "None" first (the templates feature lists them). */
function templateSelect(id: string, name: string, label: string, templates: { key: string; name: string }[], selected: string | undefined) {
  if (templates.length === 0) return '';
  return html`<label for="${id}">${label}</label><select id="${id}" name="${name}"><option value="">None</option>${templates.map((template) => html`<option value="${template.key}"${template.key === selected ? html` selected` : ''}>${template.name}</option>`)}</select>`;
}

/** The LICENSE and .gitignore the form chose, filled for the project; a ValidationError for an unknown one. */
async function chosenFiles(deps: Deps, values: Record<string, string>, fullname: string, project: string) {
  const templates = accountHooks(deps).fileTemplates;
  const files: { path: string; content: string }[] = [];
  if (!templates) return files;
  if (values.license_template) {
    const content = templates.license(values.license_template, { fullname, project });
    if (content === undefined) throw new ValidationError({ license_template: ['is not known'] });
    files.push({ path: 'LICENSE', content });
  }
  if (values.gitignore_template) {
    const content = await templates.gitignore(values.gitignore_template);
    if (content === undefined) throw new ValidationError({ gitignore_template: ['is not known'] });
    files.push({ path: '.gitignore', content });
  }
  return files;
}

async function renderForm(context: PageContext, values: Record<string, string>, error?: string, status = 200) {
  const choices = await namespaceChoices(context);
  const templates = accountHooks(context.deps).fileTemplates;
  const selected = values.namespace_id ?? context.query.namespace_id ?? '';
  const body = html`
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/projects/new" class="stacked" id="new-project">
${csrfField(context)}
<label for="project-name">Project name</label><input type="text" id="project-name" name="name" value="${values.name ?? ''}" required maxlength="255">
<label for="project-namespace">Namespace</label><select id="project-namespace" name="namespace_id">${choices.map((choice) => html`<option value="${choice.id}"${String(choice.id) === selected ? html` selected` : ''}>${choice.label}</option>`)}</select>
<label for="project-path">Project slug</label><input type="text" id="project-path" name="path" value="${values.path ?? ''}" maxlength="255" placeholder="made from the name when empty">
<label for="project-description">Project description (optional)</label><textarea id="project-description" name="description">${values.description ?? ''}</textarea>
${visibilityRadios(values.visibility || (await readApplicationSettings(context.deps.db)).default_project_visibility)}
<fieldset><legend>Project configuration</legend>
<p><input type="checkbox" id="project-readme" name="initialize_with_readme" value="1"${values.initialize_with_readme !== '' ? html` checked` : ''}> <label for="project-readme">Initialize repository with a README</label>
<span class="muted">Allows you to immediately clone this project's repository.</span></p>
${templateSelect('project-license', 'license_template', 'License', templates?.licenses() ?? [], values.license_template)}
${templateSelect('project-gitignore', 'gitignore_template', '.gitignore template', (await templates?.gitignores()) ?? [], values.gitignore_template)}
<label for="project-default-branch">Default branch</label><input type="text" id="project-default-branch" name="default_branch" value="${values.default_branch ?? ''}" maxlength="255" placeholder="the group's or the instance's when empty">
</fieldset>
<button type="submit">Create project</button>
</form>`;
  return page({ title: 'Create blank project', body, status });
}

/** The slug GitLab's form fills in from the name: lower case, runs of other characters made one dash. */
function slugOf(name: string): string | undefined {
  return name.trim().toLowerCase().replace(/[^a-z0-9_.]+/g, '-').replace(/^[-_.]+|[-_.]+$/g, '') || undefined;
}

export function newProjectPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: '/projects/new', ability: { instance: 'create_project' }, handler: (context) => renderForm(context, {}) });
  pageRoute(app, deps, {
    method: 'POST', url: '/projects/new', ability: { instance: 'create_project' },
    handler: async (context) => {
      const values = Object.fromEntries(['name', 'path', 'namespace_id', 'description', 'visibility', 'initialize_with_readme', 'default_branch', 'license_template', 'gitignore_template'].map((name) => [name, field(context.form, name)]));
      const principal = { user: context.user, scopes: ['api'], via: 'session' as const, tokenId: null };
      try {
        // Checked before the project exists, so an unknown template makes no project.
        const files = await chosenFiles(deps, values, context.user.name, values.name.trim());
        const namespaceId = Number.parseInt(values.namespace_id, 10);
        const project = await createProject(deps, principal, {
          name: values.name, path: values.path.trim() || slugOf(values.name), namespaceId: Number.isSafeInteger(namespaceId) ? namespaceId : undefined,
          visibility: values.visibility ? visibilityOf(values.visibility) : undefined, description: values.description,
          defaultBranch: values.default_branch.trim() || undefined,
        });
        const initialize = accountHooks(deps).initializeRepository;
        if (initialize) await initialize(await findProject(deps, principal, String(project.id)), { readme: values.initialize_with_readme !== '', files });
        return redirect(`/${project.full_path}`, `Project '${project.name}' was successfully created.`);
      } catch (error) {
        if (error instanceof NotFoundError || error instanceof ForbiddenError) return renderForm(context, values, 'You may not create projects in this namespace.', 403);
        const message = validationMessage(error);
        if (message) return renderForm(context, values, message, 400);
        throw error;
      }
    },
  });
}
