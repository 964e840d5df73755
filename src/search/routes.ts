// GET /search, /groups/:id/search and /projects/:id/search (lib/api/search.rb), for signed-in callers.
// Each scope asks its owning feature what the caller may see; pages as GitLab pages them: global and
// group searches without a total, project searches counted, blobs counted as found.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p, type ParamSchema } from '../platform/http/params.js';
import { EMPTY_SCOPES, GLOBAL_SCOPES, GROUP_SCOPES, PROJECT_SCOPES, SEARCH_STATES, type Scope } from './scopes.js';
import { issuesQuery, mergeRequestsQuery, milestonesQuery, notesQuery, projectsQuery, usersSearchQuery, type SearchFilters, type SearchWhere } from './finders.js';
import { commitIdsMatching, presentCommits } from './grep-commits.js';
import { groupBlobs, projectBlobs } from './search-blobs.js';
import { arrayPage, emptyPage, uncountedPage, type PageContext } from './page.js';
import { presentIssueRows, presentMergeRequestRows, presentMilestones, presentNotes, presentProjects, presentUsers } from './present.js';

function searchParams(scopes: readonly string[]) {
  return {
    search: p.string.required({ max: 4096 }),
    scope: p.string.required({ values: scopes }),
    state: p.string.optional({ values: SEARCH_STATES }),
    confidential: p.boolean.optional(),
    order_by: p.string.optional({ values: ['created_at'] }),
    sort: p.string.optional({ values: ['asc', 'desc'] }),
  } satisfies ParamSchema;
}

type SearchParams = ReturnType<typeof searchParams> & { ref?: ReturnType<typeof p.string.optional> };

async function search(deps: Deps, context: RouteContext<SearchParams>, where: SearchWhere): Promise<unknown[]> {
  const { params, request, reply, input } = context;
  const scope = params.scope as Scope;
  const pageContext: PageContext = { baseUrl: deps.config.baseUrl, request, reply, input };
  const term = params.search.trim();
  if (EMPTY_SCOPES.has(scope) || term === '') return emptyPage(pageContext);
  const viewer = context.actor.user;
  const filters: SearchFilters = { term, state: params.state as SearchFilters['state'], confidential: params.confidential, orderBy: params.order_by as 'created_at' | undefined, sort: params.sort as 'asc' | 'desc' | undefined };
  // A project search is counted (ProjectSearchResults pages `without_count: false`); the others not.
  const page = <Row>(query: Parameters<typeof uncountedPage<Row>>[1]) => (where.level === 'project' ? context.paginate(query) : uncountedPage(pageContext, query));
  switch (scope) {
    case 'projects':
      return presentProjects(deps, await page(await projectsQuery(deps, viewer, where, filters)));
    case 'issues':
      return presentIssueRows(deps, await page(await issuesQuery(deps, viewer, where, filters)));
    case 'merge_requests':
      return presentMergeRequestRows(deps, await page(await mergeRequestsQuery(deps, viewer, where, filters)), where);
    case 'milestones':
      return presentMilestones(deps, await page(await milestonesQuery(deps, viewer, where, filters)));
    case 'users':
      return presentUsers(deps, await page(usersSearchQuery(deps, viewer, where, filters)));
    // notes and commits are project scopes only (the params' `values` refuse them elsewhere).
    case 'notes':
      return where.level === 'project' ? presentNotes(deps, await page(notesQuery(deps, viewer, where.project, filters))) : emptyPage(pageContext);
    case 'commits':
      if (where.level !== 'project') return emptyPage(pageContext);
      return presentCommits(deps, where.project, arrayPage(pageContext, await commitIdsMatching(deps, where.project, term, params.ref)));
    case 'blobs':
      return arrayPage(pageContext, await blobs(deps, context.actor, where, term, params.ref));
    default:
      return emptyPage(pageContext);
  }
}

async function blobs(deps: Deps, principal: Principal, where: SearchWhere, term: string, ref: string | undefined) {
  if (where.level === 'project') return projectBlobs(deps, where.project, term, ref);
  if (where.level === 'group') return groupBlobs(deps, principal, await (await projectsQuery(deps, principal.user, where, { term: '' })).execute(), term);
  return [];
}

export function searchRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/search', summary: 'Search everything the caller can see', tags: ['search'], paginated: true,
    ability: { instance: 'log_in' },
    params: searchParams(GLOBAL_SCOPES),
    handler: (context) => search(deps, context as RouteContext<SearchParams>, { level: 'global' }),
  });

  // GitLab serves both `:id/search` and `:id/-/search`.
  for (const url of ['/groups/:id/search', '/groups/:id/-/search']) {
    apiRoute(app, deps, {
      method: 'GET', url, summary: 'Search a group and its subgroups', tags: ['search'], paginated: true,
      ability: { group: 'read_group' },
      params: { id: p.string.required(), ...searchParams(GROUP_SCOPES) },
      handler: async (context) => search(deps, context as unknown as RouteContext<SearchParams>, { level: 'group', group: await context.group() }),
    });
  }

  for (const url of ['/projects/:id/search', '/projects/:id/-/search']) {
    apiRoute(app, deps, {
      method: 'GET', url, summary: 'Search a project', tags: ['search'], paginated: true,
      ability: { project: 'read_project' },
      params: { id: p.string.required(), ...searchParams(PROJECT_SCOPES), ref: p.string.optional() },
      handler: async (context) => search(deps, context as unknown as RouteContext<SearchParams>, { level: 'project', project: await context.project() }),
    });
  }
}
