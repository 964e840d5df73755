// Explore › Groups (GitLab's /explore/groups): the groups the reader may see — public ones for
// anonymous visitors, internal ones too once signed in, and those they belong to — filtered by name,
// sorted, 20 a page.
import { html, type Html } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import { page, type PageOutcome } from '../platform/web/page.js';
import { canOnInstance } from '../platform/auth/policies/policy.js';
import type { NamespaceRow } from '../platform/auth/subjects.js';
import { visibleGroupsQuery } from '../accounts/api.js';
import { avatarOf, EXPLORE_TABS, filterForm, listStateOf, pageLinks, PER_PAGE, sectionTabs, signInFirst } from './shared.js';

const ROOT = '/explore/groups';
const SORTS = [
  ['name_asc', 'Name', 'name', 'asc'],
  ['name_desc', 'Name, descending', 'name', 'desc'],
  ['created_desc', 'Last created', 'created_at', 'desc'],
  ['created_asc', 'Oldest created', 'created_at', 'asc'],
] as const;

function groupItem(group: NamespaceRow): Html {
  return html`<li data-group="${group.full_path}"><h3>${avatarOf('group', group)} <a href="/groups/${group.full_path}">${group.name}</a> <span class="muted">${group.full_path}</span></h3>
${group.description ? html`<p class="wrap-anywhere">${group.description.length > 300 ? `${group.description.slice(0, 300)}…` : group.description}</p>` : ''}
<p class="muted"><span class="badge visibility">${group.visibility}</span></p></li>`;
}

function emptyState(context: PageContext, search: string): Html {
  if (search) return html`<div class="empty"><p>No groups you can see match “${search}”.</p><p><a href="${ROOT}">Show every group</a></p></div>`;
  if (!context.user) return html`<div class="empty"><p>There are no public groups here yet.</p><p><a class="button" href="/users/sign_in?return_to=${encodeURIComponent(ROOT)}">Sign in</a> to see the groups you belong to.</p></div>`;
  return html`<div class="empty"><p>There are no groups you can see yet. A group gathers projects and the people who work on them.</p>${canOnInstance(context.user, 'create_group') ? html`<p><a class="button" href="/groups/new">Create a group</a></p>` : ''}</div>`;
}

export async function renderExploreGroups(context: PageContext): Promise<PageOutcome> {
  const gate = await signInFirst(context);
  if (gate) return gate;
  const { search, sort, pageNumber, href } = listStateOf(context.query, SORTS);
  const rows = await visibleGroupsQuery(context.deps, context.user ?? null, { search: search || undefined })
    .clearOrderBy()
    .orderBy(sort[2], sort[3])
    .orderBy('id', sort[3])
    .limit(PER_PAGE + 1)
    .offset((pageNumber - 1) * PER_PAGE)
    .execute();
  const shown = rows.slice(0, PER_PAGE);
  const body = html`${sectionTabs('Explore', EXPLORE_TABS, ROOT)}
${filterForm(ROOT, 'groups', search, SORTS.map(([name, label]) => [name, label] as const), sort[0])}
${shown.length ? html`<ul class="plain" id="groups">${shown.map(groupItem)}</ul>` : emptyState(context, search)}
${pageLinks((n) => href(ROOT, n), pageNumber, rows.length > PER_PAGE)}`;
  return page({ title: 'Explore groups', body });
}
