// Settings › Badges for a project (`/<project>/-/settings/badges`, its Maintainers) and a group
// (`/groups/<group>/-/settings/badges`, its Owners): the badges with their rendered preview, each
// editable and removable (a project's groups' badges shown, not changed here), and a form to add one
// whose "Preview" renders the URLs' placeholders before saving. The same actions as the badges API.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { namespacedPage, csrfField, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { html, type Html } from '../platform/web/html.js';
import { groupSidebar, projectSidebar } from '../platform/web/project-nav.js';
import { ValidationError } from '../platform/errors.js';
import { badgesQuery, findOwnBadge, type BadgeSource } from './finder.js';
import { basicBadgeEntity, type BadgeFields, type BadgeRow } from './entities.js';
import { PLACEHOLDERS, type PlaceholderValues } from './placeholders.js';
import { placeholderValuesFor } from './source-values.js';
import { createBadge } from './create-badge.js';
import { updateBadge } from './update-badge.js';
import { deleteBadge } from './delete-badge.js';
import { validateBadge } from './validate-badge.js';

const PROJECT_PATTERN = /^(?<path>.+?)\/-\/settings\/badges$/;
const GROUP_PATTERN = /^groups\/(?<path>.+?)\/-\/settings\/badges$/;

interface Scope {
  source: BadgeSource;
  self: string;
  sidebar: Html;
  noun: 'project' | 'group';
}

async function scopeOf(context: PageContext, noun: Scope['noun']): Promise<Scope> {
  if (noun === 'project') {
    const access = await context.project();
    return { source: { project: access.project }, self: `/${access.project.full_path}/-/settings/badges`, sidebar: projectSidebar(access, 'badges'), noun };
  }
  const access = await context.group();
  return { source: { group: access.group }, self: `/groups/${access.group.full_path}/-/settings/badges`, sidebar: groupSidebar(access, 'badges'), noun };
}

const text = (form: Record<string, string | string[]>, name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');

function fieldsOf(form: Record<string, string | string[]>): BadgeFields {
  return { name: text(form, 'name') || null, link_url: text(form, 'link_url'), image_url: text(form, 'image_url') };
}

/** The badge as it shows on the project page: its image, linked. */
async function preview(badge: BadgeFields, values: PlaceholderValues | null): Promise<Html> {
  const rendered = await basicBadgeEntity(badge, values);
  return html`<a href="${rendered.rendered_link_url}" rel="noopener noreferrer" class="badge-preview"><img src="${rendered.rendered_image_url}" alt="${badge.name ?? 'Badge'}" height="20"></a>
<span class="muted wrap-anywhere">${rendered.rendered_link_url}</span>`;
}

function badgeFields(idPrefix: string, badge: BadgeFields | null): Html {
  return html`<label for="${idPrefix}-name">Name</label><input type="text" id="${idPrefix}-name" name="name" maxlength="255" value="${badge?.name ?? ''}">
<label for="${idPrefix}-link">Link</label><input type="url" id="${idPrefix}-link" name="link_url" required maxlength="2048" value="${badge?.link_url ?? ''}" placeholder="https://example.com/%{project_path}">
<label for="${idPrefix}-image">Badge image URL</label><input type="url" id="${idPrefix}-image" name="image_url" required maxlength="2048" value="${badge?.image_url ?? ''}" placeholder="https://example.com/%{project_path}/badge.svg">`;
}

async function render(context: PageContext, scope: Scope, draft: { fields: BadgeFields; preview: boolean; error?: string } | null, status = 200): Promise<PageOutcome> {
  const { deps } = context;
  const values = await placeholderValuesFor(deps, scope.source, context.user);
  const badges = await (await badgesQuery(deps, scope.source)).execute();
  const form = (action: string, body: Html, id?: number) => html`<form method="post" action="${scope.self}" class="stacked">${csrfField(context)}${id === undefined ? '' : html`<input type="hidden" name="badge_id" value="${id}">`}${body}<input type="hidden" name="action" value="${action}"></form>`;
  const item = async (badge: BadgeRow) => {
    const own = scope.noun === 'group' || badge.project_id !== null;
    return html`<li data-badge="${badge.id}"><p><strong>${badge.name ?? 'Unnamed badge'}</strong> <span class="badge">${badge.project_id !== null ? 'Project badge' : 'Group badge'}</span></p>
<p>${await preview(badge, values)}</p>
${own ? html`<details><summary>Edit</summary>${form('update', html`${badgeFields(`badge-${badge.id}`, badge)}<p><button type="submit">Save changes</button></p>`, Number(badge.id))}</details>
${form('delete', html`<button type="submit" class="danger">Delete badge ${badge.name ?? ''}</button>`, Number(badge.id))}` : html`<p class="muted">Set on the group: change it in the group's settings.</p>`}</li>`;
  };
  const items = await Promise.all(badges.map(item));
  const draftPreview = draft?.preview && !draft.error ? html`<div id="badge-preview" aria-live="polite"><h3>Preview</h3><p>${await preview(draft.fields, values)}</p></div>` : '';
  const addForm = html`<form method="post" action="${scope.self}" class="stacked" id="add-badge">${csrfField(context)}
${badgeFields('new-badge', draft?.fields ?? null)}
<p><button type="submit" name="action" value="create">Add badge</button> <button type="submit" name="action" value="preview" class="secondary">Preview</button></p></form>`;
  const body = html`<p>Badges are images with links shown on the ${scope.noun === 'project' ? "project's" : "group's projects'"} overview. Their URLs may hold placeholders, filled for each project: ${PLACEHOLDERS.map((name, index) => html`${index ? ', ' : ''}<code>%{${name}}</code>`)}.</p>
${draft?.error ? html`<p class="error" role="alert">${draft.error}</p>` : ''}
<h2>Add badge</h2>
${addForm}
${draftPreview}
<h2>Your badges (${badges.length})</h2>
${items.length ? html`<ul class="plain" id="badges">${items}</ul>` : html`<p class="muted">This ${scope.noun} has no badges yet.</p>`}`;
  return page({ title: 'Badges', body, status, sidebar: scope.sidebar });
}

function errorText(error: unknown): string | null {
  if (!(error instanceof ValidationError)) return null;
  return Object.entries(error.fields).map(([name, messages]) => `${name === 'link_url' ? 'Link' : name === 'image_url' ? 'Badge image URL' : name} ${messages.join(', ')}`).join('. ');
}

async function handlePost(context: PageContext, noun: Scope['noun']): Promise<PageOutcome> {
  const { deps, form } = context;
  const scope = await scopeOf(context, noun);
  const action = text(form, 'action');
  const fields = fieldsOf(form);
  try {
    switch (action) {
      case 'preview':
        validateBadge(fields);
        return render(context, scope, { fields, preview: true });
      case 'create':
        await createBadge(deps, scope.source, fields);
        return redirect(scope.self, 'New badge added.');
      case 'update': {
        const badge = await findOwnBadge(deps, scope.source, Number(text(form, 'badge_id')));
        await updateBadge(deps, badge, { name: fields.name ?? '', link_url: fields.link_url, image_url: fields.image_url });
        return redirect(scope.self, 'Badge saved.');
      }
      case 'delete':
        await deleteBadge(deps, await findOwnBadge(deps, scope.source, Number(text(form, 'badge_id'))));
        return redirect(scope.self, 'The badge was deleted.');
      default:
        return render(context, scope, { fields, preview: false, error: 'Choose what to do with the badge.' }, 400);
    }
  } catch (error) {
    const message = errorText(error);
    if (message === null) throw error;
    return render(context, scope, { fields, preview: false, error: message }, 400);
  }
}

export function badgePages(app: FastifyInstance, deps: Deps): void {
  const project = { project: 'admin_project' } as const;
  const group = { group: 'admin_group' } as const;
  // The group's first: the project pattern would take `groups/<group>` for a project's path.
  namespacedPage(app, deps, { method: 'GET', pattern: GROUP_PATTERN, ability: group, handler: async (context) => render(context, await scopeOf(context, 'group'), null) });
  namespacedPage(app, deps, { method: 'POST', pattern: GROUP_PATTERN, ability: group, handler: (context) => handlePost(context, 'group') });
  namespacedPage(app, deps, { method: 'GET', pattern: PROJECT_PATTERN, ability: project, handler: async (context) => render(context, await scopeOf(context, 'project'), null) });
  namespacedPage(app, deps, { method: 'POST', pattern: PROJECT_PATTERN, ability: project, handler: (context) => handlePost(context, 'project') });
}
