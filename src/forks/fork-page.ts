// The fork page (GitLab's /<project>/-/forks/new): choose the namespace (the caller's own, or a group
// where they may create projects), the name, path and visibility, then fork through forkProject,
// the action of POST /projects/:id/fork; the fork's page follows.
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { NamespaceRow, ProjectAccess } from '../platform/auth/subjects.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import { html } from '../platform/web/html.js';
import { csrfField, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { projectSidebar } from '../platform/web/project-nav.js';
import { NotFoundError, StatusError } from '../platform/errors.js';
import { forkProject, isForkTargetAt, mayFork } from './fork-project.js';
import { memberGroupsWithLevels } from '../accounts/api.js';

export const FORK_PATTERN = /^(?<path>.+?)\/-\/forks\/new$/;

/** The signed-in user acting through the page, as the new-project page acts. */
const sessionPrincipal = (context: PageContext): Principal => ({ user: context.user, scopes: ['api'], via: 'session', tokenId: null });

const str = (value: unknown): string => (typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '');

/**
 * The caller's own namespace, then the groups they reach (as members, or below a group they are a
 * member of) where they may create projects: the groups and the caller's levels in one statement.
 */
async function forkTargets(deps: Deps, principal: Principal): Promise<NamespaceRow[]> {
  const { user } = principal;
  const [own, groups] = await Promise.all([
    deps.db.selectFrom('namespaces').selectAll().where('kind', '=', 'user').where('owner_id', '=', user.id).execute(),
    memberGroupsWithLevels(deps.db, user, deps.clock.now(), 200),
  ]);
  return [...own, ...groups.filter(({ group, level }) => isForkTargetAt(principal, group, level)).map(({ group }) => group)];
}

async function renderForm(context: PageContext, access: ProjectAccess, values: Record<string, string>, error?: string, status = 200): Promise<PageOutcome> {
  const { project } = access;
  const targets = await forkTargets(context.deps, sessionPrincipal(context));
  const option = (value: string, label: string, selected: boolean) => html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
  const body = html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<p>A fork is a copy of ${project.full_path} in a namespace of yours: change it freely, then open a merge request back into it.</p>
<form method="post" action="/${project.full_path}/-/forks/new" class="stacked" id="fork-form">${csrfField(context)}
<label for="fork-namespace">Namespace</label><select id="fork-namespace" name="namespace_id" required>${targets.map((namespace) => option(String(namespace.id), namespace.full_path, values.namespace_id === String(namespace.id)))}</select>
<label for="fork-name">Project name</label><input type="text" id="fork-name" name="name" value="${values.name}" required maxlength="255">
<label for="fork-path">Project slug</label><input type="text" id="fork-path" name="path" value="${values.path}" required maxlength="255">
<label for="fork-description">Description</label><textarea id="fork-description" name="description">${values.description}</textarea>
<fieldset><legend>Visibility level</legend>
${(['private', 'internal', 'public'] as const).map((level) => html`<p><input type="radio" id="fork-visibility-${level}" name="visibility" value="${level}"${values.visibility === level ? html` checked` : ''}> <label for="fork-visibility-${level}">${level[0].toUpperCase() + level.slice(1)}</label></p>`)}
<p class="muted">A fork is never more visible than ${project.full_path} or its namespace.</p>
</fieldset>
<p class="actions"><button type="submit">Fork project</button> <a href="/${project.full_path}">Cancel</a></p>
</form>`;
  return page({ title: `Fork project · ${project.name}`, heading: html`<h1>Fork project</h1>`, body, sidebar: projectSidebar(access, 'overview'), status });
}

export async function renderForkPage(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  if (!mayFork(access)) throw new NotFoundError();
  const { project } = access;
  return renderForm(context, access, { namespace_id: '', name: project.name, path: project.path, description: project.description ?? '', visibility: project.visibility });
}

export async function handleForkPage(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const values = Object.fromEntries(['namespace_id', 'name', 'path', 'description', 'visibility'].map((name) => [name, str(context.form[name]).slice(0, 2000)]));
  const visibility = (['private', 'internal', 'public'] as string[]).includes(values.visibility) ? (values.visibility as Visibility) : undefined;
  try {
    const fork = await forkProject(context.deps, sessionPrincipal(context), access, {
      namespaceId: /^\d{1,15}$/.test(values.namespace_id) ? Number(values.namespace_id) : undefined,
      name: values.name.trim() || undefined,
      path: values.path.trim() || undefined,
      description: values.description,
      visibility,
    });
    return redirect(`/${fork.full_path}`, 'The project was successfully forked.');
  } catch (error) {
    if (error instanceof StatusError && error.status < 500) return renderForm(context, access, values, Array.isArray(error.body) ? error.body.join(' ') : String(error.body), error.status);
    if (error instanceof NotFoundError && error.resource) return renderForm(context, access, values, `${error.resource} not found.`, 404);
    throw error;
  }
}
