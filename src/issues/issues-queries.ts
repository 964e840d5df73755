// Issue listings (GitLab's IssuesFinder for GET /projects/:id/issues, /groups/:id/issues and /issues):
// a base query over `issues as i` joined to `projects as p`, the caller's visibility in SQL before
// paging, then small optional filters applied one after another, then GitLab's orderings.
import { reactionCondition } from './award-emoji/reaction-queries.js';
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { onePassPageQuery } from '../platform/http/pagination-queries.js';
import { COUNT_LIMIT, type OnePass } from '../platform/http/pagination.js';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { DAY_MS } from '../platform/clock.js';
import { today } from '../platform/auth/access-scope.js';
import { readableIssueSql } from '../platform/auth/policies/issue-visibility-queries.js';
import type { DB } from '../platform/db/schema.js';
import { containsPattern, lowerLike } from '../platform/db/like.js';
import type { IssueRow } from './entities.js';

/** IssuableFinder's wildcard values. */
export const NONE = 'none';
export const ANY = 'any';

export type OrderBy = 'created_at' | 'updated_at' | 'due_date' | 'title' | 'priority' | 'label_priority' | 'milestone_due' | 'popularity' | 'relative_position';

export interface IssueFilters {
  state?: 'opened' | 'closed' | 'all';
  issueType?: 'issue' | 'incident';
  search?: string;
  /** The only issues that can contain `search`, from the trigram index (issue-search-queries.ts): a JSON array of ids. */
  searchIds?: string;
  /** How many ids `searchIds` holds. */
  searchIdCount?: number;
  /** Where `search` looks: the title, the description, or both (the default). */
  searchIn?: Array<'title' | 'description'>;
  /** Label titles the issue must all carry, or the wildcards NONE / ANY. */
  labels?: string[];
  /** A milestone title, or NONE / ANY / 'upcoming' / 'started'. */
  milestone?: string;
  assigneeId?: number | typeof NONE | typeof ANY;
  assigneeUsernames?: string[];
  authorId?: number;
  authorUsername?: string;
  iids?: number[];
  /** GitLab's my_reaction_emoji (award-emoji/reaction-queries.ts). */
  myReactionEmoji?: string;
  confidential?: boolean;
  createdAfter?: number;
  createdBefore?: number;
  updatedAfter?: number;
  updatedBefore?: number;
  /** GitLab's due_date filter: '0' (none), 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks'. */
  dueDate?: string;
  /** `created_by_me` and `assigned_to_me` need the viewer. */
  scope?: 'created_by_me' | 'assigned_to_me' | 'all';
  orderBy?: OrderBy;
  sort?: 'asc' | 'desc';
}

/** Which confidential issues a one-project listing shows (issue-policy.ts): all, or the viewer's own and assigned. */
export type ConfidentialScope = { all: true } | { userId: number | null };

export type IssueQuery = SelectQueryBuilder<DB & { i: DB['issues']; p: DB['projects'] }, 'i' | 'p', IssueRow>;

/**
 * `issues as i` joined to its project. With a search's candidates (`searchIds`, SQLite) the issues are
 * read from them, each by its id: SQLite's CROSS JOIN keeps the candidates the outer loop, so a page
 * sorts the few candidates that pass instead of walking the listing's index in order and testing
 * every issue it passes against them (at one match in a thousand, ten thousand index entries for a
 * page; the planner cannot tell how many ids a JSON text holds), and the count reads the candidates
 * alone. Bound as one JSON text: one statement text whatever the number of ids.
 */
function base(deps: Deps, searchIds?: string): IssueQuery {
  const issues = searchIds
    ? deps.db.selectFrom(sql`json_each(${searchIds})`.as('c')).crossJoin('issues as i').where(sql<SqlBool>`i.id = c.value`)
    : deps.db.selectFrom('issues as i');
  return issues.innerJoin('projects as p', 'p.id', 'i.project_id').selectAll('i') as unknown as IssueQuery;
}

/** One project's issues the caller may read (the project itself is already readable). */
export function projectIssuesQuery(deps: Deps, projectId: number, scope: ConfidentialScope, filters: IssueFilters, viewer: AuthUser | null): IssueQuery {
  let query = base(deps, searchCandidates(filters)).where('i.project_id', '=', projectId);
  if (!('all' in scope)) {
    const { userId } = scope;
    query = query.where(userId === null
      ? sql<SqlBool>`i.confidential = 0`
      : sql<SqlBool>`(i.confidential = 0 or i.author_id = ${userId} or exists (select 1 from issue_assignees ia where ia.issue_id = i.id and ia.user_id = ${userId}))`);
  }
  return applyFilters(deps.dialect, query, filters, viewer, deps.clock.now());
}

/** Issues of many projects: every project (GET /issues), or those under some groups (GET /groups/:id/issues). */
export function readableIssuesQuery(deps: Deps, viewer: AuthUser | null, where: { groupIds: number[] } | { everywhere: true }, filters: IssueFilters): IssueQuery {
  const nowMs = deps.clock.now();
  let query = base(deps, searchCandidates(filters)).where(readableIssueSql(viewer, nowMs));
  if ('groupIds' in where) query = where.groupIds.length ? query.where('p.namespace_id', 'in', where.groupIds) : query.where(sql<SqlBool>`1 = 0`);
  return applyFilters(deps.dialect, query, filters, viewer, nowMs);
}

/** Issues of one milestone that the caller may read (GET /projects/:id/milestones/:id/issues and the group's). */
export function milestoneIssuesQuery(deps: Deps, viewer: AuthUser | null, milestoneId: number): IssueQuery {
  return base(deps).where('i.milestone_id', '=', milestoneId).where(readableIssueSql(viewer, deps.clock.now())).orderBy('i.id', 'desc');
}

/** The candidates a listing is read from: those of a search (the LIKE keeps checking them), else none. */
function searchCandidates(filters: IssueFilters): string | undefined {
  return filters.search ? filters.searchIds : undefined;
}

function hasLabel(title: string) {
  return sql<SqlBool>`exists (select 1 from label_links ll join labels l on l.id = ll.label_id where ll.issue_id = i.id and l.title = ${title})`;
}

const anyLabel = sql<SqlBool>`exists (select 1 from label_links ll where ll.issue_id = i.id)`;
const anyAssignee = sql<SqlBool>`exists (select 1 from issue_assignees ia where ia.issue_id = i.id)`;

function assignedTo(userId: number) {
  return sql<SqlBool>`exists (select 1 from issue_assignees ia where ia.issue_id = i.id and ia.user_id = ${userId})`;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The [from, to] days of GitLab's due_date filter values (Rails weeks start on Monday). */
function dueWindow(value: string, nowMs: number): [string | null, string | null] | 'none' | 'any' | null {
  const now = new Date(Date.parse(`${today(nowMs)}T00:00:00.000Z`));
  const todayText = day(now.getTime());
  switch (value) {
    case '0': return 'none';
    case 'any': return 'any';
    case 'today': return [todayText, todayText];
    case 'tomorrow': return [day(now.getTime() + DAY_MS), day(now.getTime() + DAY_MS)];
    case 'overdue': return [null, day(now.getTime() - DAY_MS)];
    case 'week': {
      const monday = now.getTime() - ((now.getUTCDay() + 6) % 7) * DAY_MS;
      return [day(monday), day(monday + 6 * DAY_MS)];
    }
    case 'month': {
      const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
      return [day(first), day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - DAY_MS)];
    }
    case 'next_month_and_previous_two_weeks':
      return [day(now.getTime() - 14 * DAY_MS), day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1) - DAY_MS)];
    default: return null;
  }
}

/**
 * `search=`'s condition: the text in one of `columns`, ignoring case. PostgreSQL's is
 * `lower(column) like`, the expression its trigram indexes hold. SQLite's is the bare LIKE, which
 * answers the same: SQLite's LIKE ignores the case of ASCII letters and of no other character, its
 * lower() lowers ASCII letters and no other (no ICU), and the pattern is lower-case already. lower()
 * only copied every candidate's title and description before the LIKE read them: ~0.5 µs a match,
 * which a search of a thousand matches pays a thousand times (docs/performance.md, Search through trigrams).
 */
function textCondition(dialect: Deps['dialect'], text: string, columns: ReadonlyArray<'title' | 'description'>) {
  const pattern = containsPattern(text);
  const parts = columns.map((column) => (dialect === 'sqlite' ? sql`${sql.ref(`i.${column}`)} like ${pattern} escape '\\'` : lowerLike(`i.${column}`, pattern)));
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

function applyFilters(dialect: Deps['dialect'], start: IssueQuery, filters: IssueFilters, viewer: AuthUser | null, nowMs: number): IssueQuery {
  let query = start;
  if (filters.scope === 'created_by_me') query = viewer ? query.where('i.author_id', '=', viewer.id) : query.where(sql<SqlBool>`1 = 0`);
  if (filters.scope === 'assigned_to_me') query = viewer ? query.where(assignedTo(viewer.id)) : query.where(sql<SqlBool>`1 = 0`);
  if (filters.state && filters.state !== 'all') query = query.where('i.state', '=', filters.state);
  if (filters.issueType) query = query.where('i.issue_type', '=', filters.issueType);
  if (filters.confidential !== undefined) query = query.where('i.confidential', '=', filters.confidential ? 1 : 0);
  if (filters.iids?.length) query = query.where('i.iid', 'in', filters.iids);
  if (filters.myReactionEmoji !== undefined) query = query.where(reactionCondition('Issue', 'i.id', filters.myReactionEmoji, viewer?.id ?? null));
  if (filters.authorId !== undefined) query = query.where('i.author_id', '=', filters.authorId);
  if (filters.authorUsername !== undefined) query = query.where(sql<SqlBool>`i.author_id in (select id from users where username_lower = ${filters.authorUsername.toLowerCase()})`);
  if (filters.search) query = query.where(textCondition(dialect, filters.search, filters.searchIn?.length ? filters.searchIn : ['title', 'description']));
  if (filters.labels?.length) {
    const [first] = filters.labels;
    if (filters.labels.length === 1 && first.toLowerCase() === NONE) query = query.where(sql<SqlBool>`not ${anyLabel}`);
    else if (filters.labels.length === 1 && first.toLowerCase() === ANY) query = query.where(anyLabel);
    else for (const title of filters.labels) query = query.where(hasLabel(title));
  }
  if (filters.milestone !== undefined) query = milestoneFilter(query, filters.milestone, nowMs);
  if (filters.assigneeId !== undefined) {
    if (filters.assigneeId === NONE) query = query.where(sql<SqlBool>`not ${anyAssignee}`);
    else if (filters.assigneeId === ANY) query = query.where(anyAssignee);
    else query = query.where(assignedTo(filters.assigneeId));
  }
  for (const username of filters.assigneeUsernames ?? []) {
    query = query.where(sql<SqlBool>`exists (select 1 from issue_assignees ia join users u on u.id = ia.user_id where ia.issue_id = i.id and u.username_lower = ${username.toLowerCase()})`);
  }
  if (filters.createdAfter !== undefined) query = query.where('i.created_at', '>=', filters.createdAfter);
  if (filters.createdBefore !== undefined) query = query.where('i.created_at', '<=', filters.createdBefore);
  if (filters.updatedAfter !== undefined) query = query.where('i.updated_at', '>=', filters.updatedAfter);
  if (filters.updatedBefore !== undefined) query = query.where('i.updated_at', '<=', filters.updatedBefore);
  if (filters.dueDate !== undefined) {
    const window = dueWindow(filters.dueDate, nowMs);
    if (window === 'none') query = query.where('i.due_date', 'is', null);
    else if (window === 'any') query = query.where('i.due_date', 'is not', null);
    else if (window) {
      if (window[0] !== null) query = query.where('i.due_date', '>=', window[0]);
      if (window[1] !== null) query = query.where('i.due_date', '<=', window[1]);
    }
  }
  return order(query, filters.orderBy ?? 'created_at', filters.sort ?? 'desc');
}

/** How a searched page reads its issues again (pagination-queries.ts, `onePassPageQuery`). */
const ISSUE_ROWS = { table: 'issues', alias: 'i', key: 'id' };

/**
 * A searched listing's page and the number of its matches in one pass (pagination-queries.ts,
 * `onePassPageQuery`), or null for a listing read as usual. Only a search has few enough rows for it: on
 * SQLite those the trigram index named (at most COUNT_LIMIT, so the pass reads every match), on
 * PostgreSQL any text (beyond COUNT_LIMIT matches the page is read again, as pagination.ts does).
 * A listing without a search walks its index in order and stops after its page instead. On SQLite,
 * candidates too few to fill the page make a short page, which counts itself: the page alone is read.
 */
export function searchedPageQuery(deps: Deps, query: IssueQuery, filters: IssueFilters): OnePass | null {
  if (!filters.search || (deps.dialect === 'sqlite' && filters.searchIds === undefined)) return null;
  const candidates = deps.dialect === 'sqlite' ? (filters.searchIdCount ?? 0) : Infinity;
  const reorder = <Q extends SelectQueryBuilder<any, any, any>>(page: Q): Q => order(page as unknown as IssueQuery, filters.orderBy ?? 'created_at', filters.sort ?? 'desc') as unknown as Q;
  return (perPage, offset) => (candidates < offset + perPage ? null : onePassPageQuery(deps.db, query, ISSUE_ROWS, reorder, perPage, offset, COUNT_LIMIT));
}

function milestoneFilter(query: IssueQuery, milestone: string, nowMs: number): IssueQuery {
  const value = milestone.toLowerCase();
  if (value === NONE) return query.where('i.milestone_id', 'is', null);
  if (value === ANY) return query.where('i.milestone_id', 'is not', null);
  const todayText = today(nowMs);
  // Upcoming: open milestones due after today; Started: open milestones that started by today
  // (GitLab's Milestone.upcoming_ids narrows Upcoming to the nearest per project; Kiln takes all).
  if (value === 'upcoming' || value === '#upcoming') return query.where(sql<SqlBool>`i.milestone_id in (select id from milestones where state = 'active' and due_date > ${todayText})`);
  if (value === 'started' || value === '#started') return query.where(sql<SqlBool>`i.milestone_id in (select id from milestones where state = 'active' and start_date <= ${todayText})`);
  return query.where(sql<SqlBool>`i.milestone_id in (select id from milestones where title = ${milestone})`);
}

/** GitLab's issue sorts, each broken by the id in the same direction; undated issues sort last either way. */
function order(query: IssueQuery, orderBy: OrderBy, direction: 'asc' | 'desc'): IssueQuery {
  const nullsLast = (expression: ReturnType<typeof sql>) => query.orderBy(sql`case when ${expression} is null then 1 else 0 end`).orderBy(expression, direction).orderBy('i.id', direction);
  switch (orderBy) {
    case 'updated_at': return query.orderBy('i.updated_at', direction).orderBy('i.id', direction);
    case 'title': return query.orderBy(sql`lower(i.title)`, direction).orderBy('i.id', direction);
    case 'due_date': return nullsLast(sql`i.due_date`);
    case 'milestone_due': return nullsLast(sql`(select m.due_date from milestones m where m.id = i.milestone_id)`);
    case 'priority':
    case 'label_priority':
      return nullsLast(sql`(select min(l.priority) from label_links ll join labels l on l.id = ll.label_id where ll.issue_id = i.id)`);
    // No votes and no manual positions in Kiln: every issue ties, the id decides.
    case 'popularity':
    case 'relative_position':
      return query.orderBy('i.id', direction);
    default: return query.orderBy('i.created_at', direction).orderBy('i.id', direction);
  }
}
