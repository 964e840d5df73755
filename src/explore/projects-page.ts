// Explore › Projects (GitLab's /explore/projects): the projects the reader may see — public ones for
// anonymous visitors, internal ones too once signed in, and their own private ones — in three tabs:
// All (sortable), Most starred, and Trending (the most active of the last 30 days), beside Topics
// (topics-page.ts). Each tab can be filtered by name and pages by 20.
import type { Deps } from '../platform/deps.js';
import { html, type Html } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import { page, type PageOutcome } from '../platform/web/page.js';
import { localTime } from '../platform/web/local-time.js';
import { canOnInstance } from '../platform/auth/policies/policy.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { visibleProjectsQuery, type ProjectFilters } from '../accounts/api.js';
import { avatarOf, EXPLORE_TABS, filterForm, listStateOf, pageLinks, PER_PAGE, sectionTabs, signInFirst, zoneOf } from './shared.js';
import { TRENDING_DAYS, trendingProjects } from './trending.js';

export type ProjectsTab = 'all' | 'starred' | 'trending';

const ROOT = '/explore/projects';
const TAB_URLS: Record<ProjectsTab, string> = { all: ROOT, starred: `${ROOT}/starred`, trending: `${ROOT}/trending` };
export const TABS = [[TAB_URLS.all, 'All'], [TAB_URLS.starred, 'Most starred'], [TAB_URLS.trending, 'Trending'], [`${ROOT}/topics`, 'Topics']] as const;

/** GitLab's sort names for the All tab, and the order each means. */
const SORTS = [
  ['latest_activity_desc', 'Last updated', 'last_activity_at', 'desc'],
  ['created_desc', 'Last created', 'created_at', 'desc'],
  ['created_asc', 'Oldest created', 'created_at', 'asc'],
  ['name_asc', 'Name', 'name', 'asc'],
  ['name_desc', 'Name, descending', 'name', 'desc'],
  ['stars_desc', 'Most stars', 'star_count', 'desc'],
] as const;

interface Listed {
  rows: ProjectRow[];
  hasNext: boolean;
}

async function listed(deps: Deps, context: PageContext, tab: ProjectsTab, search: string, sort: (typeof SORTS)[number], pageNumber: number): Promise<Listed> {
  const filters: ProjectFilters = { search: search || undefined };
  const offset = (pageNumber - 1) * PER_PAGE;
  if (tab === 'trending') {
    const ranked = await trendingProjects(deps);
    const rank = new Map(ranked.map(({ id }, index) => [id, index]));
    const visible = ranked.length ? await visibleProjectsQuery(deps, context.user ?? null, filters).where('id', 'in', ranked.map(({ id }) => id)).execute() : [];
    visible.sort((a, b) => rank.get(Number(a.id))! - rank.get(Number(b.id))!);
    return { rows: visible.slice(offset, offset + PER_PAGE), hasNext: visible.length > offset + PER_PAGE };
  }
  const [orderBy, direction] = tab === 'starred' ? (['star_count', 'desc'] as const) : ([sort[2], sort[3]] as const);
  const rows = await visibleProjectsQuery(deps, context.user ?? null, { ...filters, orderBy, sort: direction }).limit(PER_PAGE + 1).offset(offset).execute();
  return { rows: rows.slice(0, PER_PAGE), hasNext: rows.length > PER_PAGE };
}

export function projectItem(project: ProjectRow, zone: string): Html {
  return html`<li data-project="${project.full_path}"><h3>${avatarOf('project', project)} <a href="/${project.full_path}">${project.name}</a> <span class="muted">${project.full_path}</span></h3>
${project.description ? html`<p class="wrap-anywhere">${project.description.length > 300 ? `${project.description.slice(0, 300)}…` : project.description}</p>` : ''}
<p class="muted"><span class="badge visibility">${project.visibility}</span> <span aria-label="${Number(project.star_count)} stars">★ ${Number(project.star_count)}</span> · Updated ${localTime(Number(project.last_activity_at), zone)}</p></li>`;
}

function emptyState(context: PageContext, tab: ProjectsTab, search: string): Html {
  if (search) return html`<div class="empty"><p>No projects you can see match “${search}”.</p><p><a href="${TAB_URLS[tab]}">Show every project</a></p></div>`;
  if (tab === 'trending') return html`<div class="empty"><p>No project you can see had activity in the last ${TRENDING_DAYS} days.</p><p><a href="${ROOT}">Browse all projects</a></p></div>`;
  if (!context.user) return html`<div class="empty"><p>There are no public projects here yet.</p><p><a class="button" href="/users/sign_in?return_to=${encodeURIComponent(ROOT)}">Sign in</a> to see the projects shared with you.</p></div>`;
  return html`<div class="empty"><p>There are no projects you can see yet.</p>${canOnInstance(context.user, 'create_project') ? html`<p><a class="button" href="/projects/new">Create a project</a></p>` : html`<p>Ask a group’s owner to add you, or an administrator to let you create projects.</p>`}</div>`;
}

export async function renderExploreProjects(context: PageContext, tab: ProjectsTab): Promise<PageOutcome> {
  const gate = await signInFirst(context);
  if (gate) return gate;
  const { deps } = context;
  const { search, sort, pageNumber, href } = listStateOf(context.query, SORTS);
  const [{ rows, hasNext }, zone] = await Promise.all([listed(deps, context, tab, search, sort, pageNumber), zoneOf(deps, context)]);
  const body = html`${sectionTabs('Explore', EXPLORE_TABS, ROOT)}
${sectionTabs('Projects', TABS, TAB_URLS[tab])}
${filterForm(TAB_URLS[tab], 'projects', search, tab === 'all' ? SORTS.map(([name, label]) => [name, label] as const) : [], sort[0])}
${tab === 'trending' ? html`<p class="muted">The projects with the most activity in the last ${TRENDING_DAYS} days.</p>` : ''}
${rows.length ? html`<ul class="plain" id="projects">${rows.map((project) => projectItem(project, zone))}</ul>` : emptyState(context, tab, search)}
${pageLinks((n) => href(TAB_URLS[tab], n, tab === 'all'), pageNumber, hasNext)}`;
  return page({ title: 'Explore projects', body });
}
