// Issue listings (doc/api/issues.md; lib/api/issues.rb, helpers/issues_helpers.rb): a project's, a
// group's (its projects and its subgroups' projects), the caller's (GET /issues: created_by_me by
// default), and a milestone's. Every listing filters what the caller may read in SQL before paging,
// confidential issues included (issue-visibility-queries.ts).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p, rejectTogether } from '../platform/http/params.js';
import { ParamError } from '../platform/errors.js';
import { unauthorized } from '../platform/http/api-error.js';
import { findMilestone } from '../milestones/api.js';
import { groupAndDescendantIds } from '../labels/api.js';
import { confidentialScope } from './finder.js';
import { presentIssues } from './present-issues.js';
import { ANY, milestoneIssuesQuery, NONE, projectIssuesQuery, readableIssuesQuery, searchedPageQuery, type IssueFilters, type IssueQuery, type OrderBy } from './issues-queries.js';
import { ISSUE_TYPES, timeOf } from './issue-params.js';
import { narrowIssueSearch } from './issue-search-queries.js';

const TAGS = ['issues'];
const ORDER_BY = ['created_at', 'updated_at', 'due_date', 'title', 'priority', 'label_priority', 'milestone_due', 'popularity', 'relative_position'] as const;
const SCOPES = ['created_by_me', 'assigned_to_me', 'created-by-me', 'assigned-to-me', 'all'] as const;
const DUE_DATES = ['0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks'] as const;

const filterParams = {
  state: p.string.optional({ values: ['opened', 'closed', 'all'] }),
  labels: p.strings.optional(),
  with_labels_details: p.boolean.optional({ default: false }),
  milestone: p.string.optional(),
  iids: p.integers.optional(),
  search: p.string.optional(),
  in: p.string.optional(),
  author_id: p.integer.optional(),
  author_username: p.string.optional(),
  assignee_id: p.string.optional(),
  assignee_username: p.strings.optional(),
  my_reaction_emoji: p.string.optional(),
  confidential: p.boolean.optional(),
  issue_type: p.string.optional({ values: ISSUE_TYPES }),
  due_date: p.string.optional({ values: DUE_DATES }),
  created_after: p.string.optional(),
  created_before: p.string.optional(),
  updated_after: p.string.optional(),
  updated_before: p.string.optional(),
  order_by: p.string.optional({ values: ORDER_BY }),
  sort: p.string.optional({ values: ['asc', 'desc'] }),
  scope: p.string.optional({ values: SCOPES }),
};

type FilterContext = RouteContext<typeof filterParams>;

/** GitLab's assignee_id filter: a user id, or `None` / `Any` in any case. */
function assigneeFilter(value: string | undefined): IssueFilters['assigneeId'] {
  if (value === undefined) return undefined;
  const lower = value.trim().toLowerCase();
  if (lower === NONE || lower === ANY) return lower;
  if (/^\d+$/.test(lower)) return Number(lower);
  throw new ParamError('assignee_id does not have a valid value');
}

function searchIn(value: string | undefined): IssueFilters['searchIn'] {
  if (value === undefined) return undefined;
  const fields = value.split(',').map((field) => field.trim()).filter(Boolean);
  if (!fields.every((field) => field === 'title' || field === 'description')) throw new ParamError('in does not have a valid value');
  return fields as Array<'title' | 'description'>;
}

export function filtersOf({ params, input }: FilterContext, defaultScope: IssueFilters['scope']): IssueFilters {
  rejectTogether(input, ['author_id', 'author_username']);
  rejectTogether(input, ['assignee_id', 'assignee_username']);
  const scope = (params.scope?.replace(/-/g, '_') as IssueFilters['scope']) ?? defaultScope;
  return {
    state: (params.state as IssueFilters['state']) ?? 'all',
    labels: params.labels?.map((title) => title.trim()).filter(Boolean),
    milestone: params.milestone,
    iids: params.iids,
    search: params.search,
    searchIn: searchIn(params.in),
    authorId: params.author_id,
    authorUsername: params.author_username,
    assigneeId: assigneeFilter(params.assignee_id),
    assigneeUsernames: params.assignee_username,
    confidential: params.confidential,
    issueType: params.issue_type as IssueFilters['issueType'],
    dueDate: params.due_date,
    createdAfter: timeOf('created_after', params.created_after),
    createdBefore: timeOf('created_before', params.created_before),
    updatedAfter: timeOf('updated_after', params.updated_after),
    updatedBefore: timeOf('updated_before', params.updated_before),
    orderBy: params.order_by as OrderBy,
    sort: params.sort as IssueFilters['sort'],
    scope,
    myReactionEmoji: params.my_reaction_emoji,
  };
}

/** A page of a listing: a search's page and count in one pass (issues-queries.ts, `searchedPageQuery`), else as usual. */
function pageOf(deps: Deps, ctx: FilterContext, query: IssueQuery, filters: IssueFilters) {
  const onePass = searchedPageQuery(deps, query, filters);
  return onePass ? ctx.paginateInOnePass(query, onePass) : ctx.paginate(query);
}

export function issueListRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/issues', summary: 'List issues of a project', tags: TAGS, paginated: true,
    ability: { project: 'read_issue' }, auth: 'optional',
    params: { id: p.string.required(), ...filterParams },
    handler: async (ctx) => {
      const access = await ctx.project();
      const viewer = ctx.principal?.user ?? null;
      const filters = await narrowIssueSearch(deps, filtersOf(ctx, 'all'));
      const rows = await pageOf(deps, ctx, projectIssuesQuery(deps, Number(access.project.id), confidentialScope(access), filters, viewer), filters);
      return presentIssues(deps, rows, { projects: [access.project], withLabelsDetails: ctx.params.with_labels_details });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/issues', summary: "The caller's issues across projects (scope created_by_me, assigned_to_me or all)", tags: TAGS, paginated: true,
    // GitLab serves scope=all to anonymous callers (public issues); the other scopes need a user.
    ability: { instance: 'read_instance' }, auth: 'optional',
    params: filterParams,
    handler: async (ctx) => {
      const filters = await narrowIssueSearch(deps, filtersOf(ctx, 'created_by_me'));
      if (filters.scope !== 'all' && !ctx.principal) throw unauthorized();
      const rows = await pageOf(deps, ctx, readableIssuesQuery(deps, ctx.principal?.user ?? null, { everywhere: true }, filters), filters);
      return presentIssues(deps, rows, { withLabelsDetails: ctx.params.with_labels_details });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/groups/:id/issues', summary: 'List issues of the projects in a group and its subgroups', tags: TAGS, paginated: true,
    ability: { group: 'read_group' }, auth: 'optional',
    params: { id: p.string.required(), ...filterParams },
    handler: async (ctx) => {
      const access = await ctx.group();
      const groupIds = await groupAndDescendantIds(deps.db, Number(access.group.id));
      const filters = await narrowIssueSearch(deps, filtersOf(ctx, 'all'));
      const rows = await pageOf(deps, ctx, readableIssuesQuery(deps, ctx.principal?.user ?? null, { groupIds }, filters), filters);
      return presentIssues(deps, rows, { withLabelsDetails: ctx.params.with_labels_details });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/milestones/:milestone_id/issues', summary: "A project milestone's issues", tags: ['milestones'], paginated: true,
    ability: { project: 'read_milestone' },
    params: { id: p.string.required(), milestone_id: p.integer.required() },
    handler: async (ctx) => {
      const access = await ctx.project();
      const milestone = await findMilestone(deps.db, { project: access.project }, ctx.params.milestone_id);
      const rows = await ctx.paginate(milestoneIssuesQuery(deps, ctx.principal?.user ?? null, Number(milestone.id)));
      return presentIssues(deps, rows, { projects: [access.project] });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/groups/:id/milestones/:milestone_id/issues', summary: "A group milestone's issues", tags: ['milestones'], paginated: true,
    ability: { group: 'read_milestone' },
    params: { id: p.string.required(), milestone_id: p.integer.required() },
    handler: async (ctx) => {
      const access = await ctx.group();
      const milestone = await findMilestone(deps.db, { group: access.group }, ctx.params.milestone_id);
      const rows = await ctx.paginate(milestoneIssuesQuery(deps, ctx.principal?.user ?? null, Number(milestone.id)));
      return presentIssues(deps, rows);
    },
  });
}
