// Merge request listings (doc/api/merge_requests.md; lib/api/merge_requests.rb): a project's, a
// group's (its projects and its subgroups' projects), the caller's (GET /merge_requests:
// created_by_me by default), a milestone's, and those whose versions had a commit as head. Every
// listing filters what the caller may read in SQL before paging.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p, rejectTogether } from '../platform/http/params.js';
import { ParamError } from '../platform/errors.js';
import { unauthorized } from '../platform/http/api-error.js';
import { groupAndDescendantIds } from '../labels/api.js';
import { findMilestone } from '../milestones/api.js';
import { presentMergeRequests } from './present.js';
import { ANY, mergeRequestsWithHeadQuery, NONE, projectMergeRequestsQuery, readableMergeRequestsQuery, type MergeRequestFilters, type NegatableFilters, type OrderBy } from './merge-requests-queries.js';

const TAGS = ['merge_requests'];
const ORDER_BY = ['created_at', 'updated_at', 'title', 'merged_at', 'milestone_due', 'priority', 'label_priority', 'popularity'] as const;
const SCOPES = ['created_by_me', 'assigned_to_me', 'reviews_for_me', 'created-by-me', 'assigned-to-me', 'reviews-for-me', 'all'] as const;
/** Filters Kiln cannot answer (no deployments of merge requests): refused rather than ignored. */
const UNSUPPORTED_FILTERS = ['environment', 'deployed_before', 'deployed_after', 'approved_by_ids', 'approver_ids', 'approved_by_usernames', 'approved'];

type Negatable = 'labels' | 'milestone' | 'author_id' | 'author_username' | 'assignee_id' | 'assignee_username' | 'reviewer_id' | 'reviewer_username' | 'my_reaction_emoji';

const filterParams = {
  state: p.string.optional({ values: ['opened', 'closed', 'locked', 'merged', 'all'] }),
  order_by: p.string.optional({ values: ORDER_BY }),
  sort: p.string.optional({ values: ['asc', 'desc'] }),
  scope: p.string.optional({ values: SCOPES }),
  milestone: p.string.optional(),
  labels: p.strings.optional(),
  with_labels_details: p.boolean.optional({ default: false }),
  with_merge_status_recheck: p.boolean.optional(),
  view: p.string.optional({ values: ['simple'] }),
  author_id: p.integer.optional(),
  author_username: p.string.optional(),
  assignee_id: p.string.optional(),
  assignee_username: p.strings.optional(),
  reviewer_id: p.string.optional(),
  reviewer_username: p.string.optional(),
  my_reaction_emoji: p.string.optional(),
  source_branch: p.string.optional(),
  target_branch: p.string.optional(),
  source_project_id: p.integer.optional(),
  search: p.string.optional(),
  in: p.string.optional(),
  wip: p.string.optional({ values: ['yes', 'no'] }),
  created_after: p.string.optional(),
  created_before: p.string.optional(),
  updated_after: p.string.optional(),
  updated_before: p.string.optional(),
  'not[labels]': p.strings.optional(),
  'not[milestone]': p.string.optional(),
  'not[author_id]': p.integer.optional(),
  'not[author_username]': p.string.optional(),
  'not[assignee_id]': p.string.optional(),
  'not[assignee_username]': p.strings.optional(),
  'not[reviewer_id]': p.string.optional(),
  'not[reviewer_username]': p.string.optional(),
  'not[my_reaction_emoji]': p.string.optional(),
};

type FilterContext = RouteContext<typeof filterParams & { iids?: ReturnType<typeof p.integers.optional> }>;

/** A user id, or `None` / `Any` in any case (IssuableFinder's wildcards). */
function userFilter(name: string, value: string | undefined): number | typeof NONE | typeof ANY | undefined {
  if (value === undefined) return undefined;
  const lower = value.trim().toLowerCase();
  if (lower === NONE || lower === ANY) return lower;
  if (/^\d+$/.test(lower)) return Number(lower);
  throw new ParamError(`${name} does not have a valid value`);
}

function timeOf(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ParamError(`${name} is invalid`);
  return ms;
}

function searchIn(value: string | undefined): MergeRequestFilters['searchIn'] {
  if (value === undefined) return undefined;
  const fields = value.split(',').map((field) => field.trim()).filter(Boolean);
  if (!fields.every((field) => field === 'title' || field === 'description')) throw new ParamError('in does not have a valid value');
  return fields as Array<'title' | 'description'>;
}

/** `not[labels]=…` in a query string, or `{"not": {"labels": …}}` in a JSON body. */
function notFilters(ctx: FilterContext): NegatableFilters {
  const body = ctx.input.not && typeof ctx.input.not === 'object' && !Array.isArray(ctx.input.not) ? (ctx.input.not as Record<string, unknown>) : {};
  const value = <T>(name: Negatable): T | undefined => (ctx.params[`not[${name}]`] as T | undefined) ?? (body[name] as T | undefined);
  const labels = value<string[] | string>('labels');
  const assigneeUsernames = value<string[] | string>('assignee_username');
  const authorId = value<number | string>('author_id');
  return {
    labels: (typeof labels === 'string' ? labels.split(',') : labels)?.map((title) => title.trim()).filter(Boolean),
    milestone: value<string>('milestone'),
    authorId: authorId === undefined ? undefined : Number.isSafeInteger(Number(authorId)) ? Number(authorId) : (() => { throw new ParamError('not[author_id] is invalid'); })(),
    authorUsername: value<string>('author_username'),
    assigneeId: userFilter('not[assignee_id]', value<string | number>('assignee_id')?.toString()),
    assigneeUsernames: typeof assigneeUsernames === 'string' ? [assigneeUsernames] : assigneeUsernames,
    reviewerId: userFilter('not[reviewer_id]', value<string | number>('reviewer_id')?.toString()),
    reviewerUsername: value<string>('reviewer_username'),
    myReactionEmoji: value<string>('my_reaction_emoji'),
  };
}

function filtersOf(ctx: FilterContext, defaultScope: MergeRequestFilters['scope']): MergeRequestFilters {
  const { params, input } = ctx;
  const refused = UNSUPPORTED_FILTERS.filter((name) => input[name] !== undefined);
  if (refused.length) throw new ParamError(refused.map((name) => `${name} is not supported`).join(', '));
  rejectTogether(input, ['author_id', 'author_username']);
  rejectTogether(input, ['assignee_id', 'assignee_username']);
  rejectTogether(input, ['reviewer_id', 'reviewer_username']);
  return {
    state: (params.state as MergeRequestFilters['state']) ?? 'all',
    scope: (params.scope?.replace(/-/g, '_') as MergeRequestFilters['scope']) ?? defaultScope,
    labels: params.labels?.map((title) => title.trim()).filter(Boolean),
    milestone: params.milestone,
    iids: params.iids,
    authorId: params.author_id,
    authorUsername: params.author_username,
    assigneeId: userFilter('assignee_id', params.assignee_id),
    assigneeUsernames: params.assignee_username,
    reviewerId: userFilter('reviewer_id', params.reviewer_id),
    reviewerUsername: params.reviewer_username,
    myReactionEmoji: params.my_reaction_emoji,
    sourceBranch: params.source_branch,
    targetBranch: params.target_branch,
    sourceProjectId: params.source_project_id,
    search: params.search,
    searchIn: searchIn(params.in),
    draft: params.wip === undefined ? undefined : params.wip === 'yes',
    createdAfter: timeOf('created_after', params.created_after),
    createdBefore: timeOf('created_before', params.created_before),
    updatedAfter: timeOf('updated_after', params.updated_after),
    updatedBefore: timeOf('updated_before', params.updated_before),
    not: notFilters(ctx),
    orderBy: params.order_by as OrderBy,
    sort: params.sort as MergeRequestFilters['sort'],
  };
}

export function mergeRequestListRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests', summary: 'List merge requests of a project', tags: TAGS, paginated: true,
    ability: { project: 'read_merge_request' }, auth: 'optional',
    params: { id: p.string.required(), iids: p.integers.optional(), ...filterParams },
    handler: async (ctx) => {
      const access = await ctx.project();
      const rows = await ctx.paginate(projectMergeRequestsQuery(deps, Number(access.project.id), filtersOf(ctx, 'all'), ctx.principal?.user ?? null));
      const from = { projectId: Number(access.project.id), namespaceId: Number(access.project.namespace_id) };
      return presentMergeRequests(deps, rows, { from, withLabelsDetails: ctx.params.with_labels_details, view: ctx.params.view });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/merge_requests', summary: "The caller's merge requests across projects (scope created_by_me, assigned_to_me, reviews_for_me or all)", tags: TAGS, paginated: true,
    // GitLab serves scope=all to anonymous callers (public merge requests); the other scopes need a user.
    ability: { instance: 'read_instance' }, auth: 'optional',
    params: filterParams,
    handler: async (ctx) => {
      const filters = filtersOf(ctx as FilterContext, 'created_by_me');
      if (filters.scope !== 'all' && !ctx.principal) throw unauthorized();
      const rows = await ctx.paginate(readableMergeRequestsQuery(deps, ctx.principal?.user ?? null, { everywhere: true }, filters));
      return presentMergeRequests(deps, rows, { from: null, withLabelsDetails: ctx.params.with_labels_details, view: ctx.params.view });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/groups/:id/merge_requests', summary: 'List merge requests of the projects in a group and its subgroups', tags: TAGS, paginated: true,
    ability: { group: 'read_group' }, auth: 'optional',
    params: { id: p.string.required(), non_archived: p.boolean.optional(), ...filterParams },
    handler: async (ctx) => {
      const access = await ctx.group();
      const groupIds = await groupAndDescendantIds(deps.db, Number(access.group.id));
      const rows = await ctx.paginate(readableMergeRequestsQuery(deps, ctx.principal?.user ?? null, { groupIds }, filtersOf(ctx as FilterContext, 'all')));
      return presentMergeRequests(deps, rows, { from: null, withLabelsDetails: ctx.params.with_labels_details, view: ctx.params.view });
    },
  });

  // A milestone's merge requests, every state (lib/api/milestone_responses.rb): GitLab answers them
  // for a group milestone from the group's projects and its subgroups' projects.
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/milestones/:milestone_id/merge_requests', summary: "A project milestone's merge requests", tags: ['milestones'], paginated: true,
    ability: { project: 'read_milestone' },
    params: { id: p.string.required(), milestone_id: p.integer.required() },
    handler: async (ctx) => {
      const access = await ctx.project();
      const milestone = await findMilestone(deps.db, { project: access.project }, ctx.params.milestone_id);
      const rows = await ctx.paginate(readableMergeRequestsQuery(deps, ctx.principal?.user ?? null, { everywhere: true }, { state: 'all', scope: 'all' })
        .where('m.target_project_id', '=', Number(access.project.id)).where('m.milestone_id', '=', Number(milestone.id)));
      return presentMergeRequests(deps, rows, { from: { projectId: Number(access.project.id), namespaceId: Number(access.project.namespace_id) } });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/groups/:id/milestones/:milestone_id/merge_requests', summary: "A group milestone's merge requests", tags: ['milestones'], paginated: true,
    ability: { group: 'read_milestone' },
    params: { id: p.string.required(), milestone_id: p.integer.required() },
    handler: async (ctx) => {
      const access = await ctx.group();
      const milestone = await findMilestone(deps.db, { group: access.group }, ctx.params.milestone_id);
      const groupIds = await groupAndDescendantIds(deps.db, Number(access.group.id));
      const rows = await ctx.paginate(readableMergeRequestsQuery(deps, ctx.principal?.user ?? null, { groupIds }, { state: 'all', scope: 'all' })
        .where('m.milestone_id', '=', Number(milestone.id)));
      return presentMergeRequests(deps, rows, { from: null });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/commits/:sha/merge_requests', summary: 'Merge requests whose versions had this commit as their head', tags: TAGS, paginated: true,
    ability: { project: 'read_merge_request' }, auth: 'optional',
    params: { id: p.string.required(), sha: p.string.required({ max: 64 }) },
    handler: async (ctx) => {
      const access = await ctx.project();
      const rows = await ctx.paginate(mergeRequestsWithHeadQuery(deps, Number(access.project.id), ctx.params.sha.trim().toLowerCase()));
      return presentMergeRequests(deps, rows, { from: { projectId: Number(access.project.id), namespaceId: Number(access.project.namespace_id) } });
    },
  });
}
