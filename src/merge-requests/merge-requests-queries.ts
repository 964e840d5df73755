// Merge request listings (GitLab's MergeRequestsFinder for GET /projects/:id/merge_requests,
// /groups/:id/merge_requests and /merge_requests): a base query over `merge_requests as m` joined to
// its target `projects as p`, the caller's visibility in SQL before paging, then the optional
// filters one after another (and their `not[…]` negations), then GitLab's orderings.
import { DOWNVOTE, reactionCondition, UPVOTE } from '../issues/api.js';
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { readableMergeRequestSql } from '../platform/auth/policies/merge-request-visibility-queries.js';
import type { DB } from '../platform/db/schema.js';
import type { Executor } from '../platform/db/database.js';
import { containsPattern, lowerLike } from '../platform/db/like.js';
import type { MergeRequestRow } from './entities.js';

export const NONE = 'none';
export const ANY = 'any';

export type OrderBy = 'created_at' | 'updated_at' | 'title' | 'merged_at' | 'milestone_due' | 'priority' | 'label_priority' | 'popularity';

/** The filters that may also be negated with `not[…]`. */
export interface NegatableFilters {
  labels?: string[];
  milestone?: string;
  authorId?: number;
  authorUsername?: string;
  assigneeId?: number | typeof NONE | typeof ANY;
  assigneeUsernames?: string[];
  reviewerId?: number | typeof NONE | typeof ANY;
  reviewerUsername?: string;
  myReactionEmoji?: string;
}

export interface MergeRequestFilters extends NegatableFilters {
  state?: 'opened' | 'closed' | 'locked' | 'merged' | 'all';
  scope?: 'created_by_me' | 'assigned_to_me' | 'reviews_for_me' | 'all';
  iids?: number[];
  sourceBranch?: string;
  targetBranch?: string;
  sourceProjectId?: number;
  search?: string;
  searchIn?: Array<'title' | 'description'>;
  draft?: boolean;
  createdAfter?: number;
  createdBefore?: number;
  updatedAfter?: number;
  updatedBefore?: number;
  not?: NegatableFilters;
  orderBy?: OrderBy;
  sort?: 'asc' | 'desc';
}

type MergeRequestQuery = SelectQueryBuilder<DB & { m: DB['merge_requests']; p: DB['projects'] }, 'm' | 'p', MergeRequestRow>;

function base(deps: Deps): MergeRequestQuery {
  return deps.db.selectFrom('merge_requests as m').innerJoin('projects as p', 'p.id', 'm.target_project_id').selectAll('m') as unknown as MergeRequestQuery;
}

/** One project's merge requests (its readability already decided by the route). */
export function projectMergeRequestsQuery(deps: Deps, projectId: number, filters: MergeRequestFilters, viewer: AuthUser | null): MergeRequestQuery {
  return applyFilters(base(deps).where('m.target_project_id', '=', projectId), filters, viewer);
}

/** Merge requests of many projects: every project (GET /merge_requests) or those under some groups. */
export function readableMergeRequestsQuery(deps: Deps, viewer: AuthUser | null, where: { groupIds: number[] } | { everywhere: true }, filters: MergeRequestFilters): MergeRequestQuery {
  let query = base(deps).where(readableMergeRequestSql(viewer, deps.clock.now()));
  if ('groupIds' in where) query = where.groupIds.length ? query.where('p.namespace_id', 'in', where.groupIds) : query.where(sql<SqlBool>`1 = 0`);
  return applyFilters(query, filters, viewer);
}

/** Merge requests of a project whose versions had this commit as their head, newest first. */
export function mergeRequestsWithHeadQuery(deps: Deps, projectId: number, sha: string): MergeRequestQuery {
  return base(deps)
    .where('m.target_project_id', '=', projectId)
    .where(sql<SqlBool>`m.id in (select d.merge_request_id from merge_request_diffs d where d.head_commit_sha = ${sha})`)
    .orderBy('m.id', 'desc');
}

const hasLabel = (title: string) => sql<SqlBool>`exists (select 1 from merge_request_label_links ll join labels l on l.id = ll.label_id where ll.merge_request_id = m.id and l.title = ${title})`;
const anyLabel = sql<SqlBool>`exists (select 1 from merge_request_label_links ll where ll.merge_request_id = m.id)`;
const anyUser = (table: 'merge_request_assignees' | 'merge_request_reviewers') => sql<SqlBool>`exists (select 1 from ${sql.table(table)} x where x.merge_request_id = m.id)`;
const hasUser = (table: 'merge_request_assignees' | 'merge_request_reviewers', userId: number) => sql<SqlBool>`exists (select 1 from ${sql.table(table)} x where x.merge_request_id = m.id and x.user_id = ${userId})`;
const hasUsername = (table: 'merge_request_assignees' | 'merge_request_reviewers', username: string) =>
  sql<SqlBool>`exists (select 1 from ${sql.table(table)} x join users u on u.id = x.user_id where x.merge_request_id = m.id and u.username_lower = ${username.toLowerCase()})`;

function userCondition(table: 'merge_request_assignees' | 'merge_request_reviewers', value: number | typeof NONE | typeof ANY): RawBuilder<SqlBool> {
  if (value === NONE) return sql<SqlBool>`not ${anyUser(table)}`;
  if (value === ANY) return anyUser(table);
  return hasUser(table, value);
}

function milestoneCondition(milestone: string): RawBuilder<SqlBool> {
  const value = milestone.toLowerCase();
  if (value === NONE) return sql<SqlBool>`m.milestone_id is null`;
  if (value === ANY) return sql<SqlBool>`m.milestone_id is not null`;
  // `is not null` first: negated (not[milestone]), a merge request without a milestone must count as
  // true, as GitLab's without_particular_milestones keeps it, not as SQL's unknown `null in (…)`.
  return sql<SqlBool>`(m.milestone_id is not null and m.milestone_id in (select id from milestones where title = ${milestone}))`;
}

/** Each negatable filter as conditions (all must hold). */
function negatableConditions(filters: NegatableFilters, viewer: AuthUser | null): RawBuilder<SqlBool>[] {
  const conditions: RawBuilder<SqlBool>[] = [];
  if (filters.labels?.length) {
    const [first] = filters.labels;
    if (filters.labels.length === 1 && first.toLowerCase() === NONE) conditions.push(sql<SqlBool>`not ${anyLabel}`);
    else if (filters.labels.length === 1 && first.toLowerCase() === ANY) conditions.push(anyLabel);
    else for (const title of filters.labels) conditions.push(hasLabel(title));
  }
  if (filters.milestone !== undefined) conditions.push(milestoneCondition(filters.milestone));
  if (filters.authorId !== undefined) conditions.push(sql<SqlBool>`m.author_id = ${filters.authorId}`);
  if (filters.authorUsername !== undefined) conditions.push(sql<SqlBool>`m.author_id in (select id from users where username_lower = ${filters.authorUsername.toLowerCase()})`);
  if (filters.assigneeId !== undefined) conditions.push(userCondition('merge_request_assignees', filters.assigneeId));
  for (const username of filters.assigneeUsernames ?? []) conditions.push(hasUsername('merge_request_assignees', username));
  if (filters.reviewerId !== undefined) conditions.push(userCondition('merge_request_reviewers', filters.reviewerId));
  if (filters.reviewerUsername !== undefined) conditions.push(hasUsername('merge_request_reviewers', filters.reviewerUsername));
  if (filters.myReactionEmoji !== undefined) conditions.push(reactionCondition('MergeRequest', 'm.id', filters.myReactionEmoji, viewer?.id ?? null));
  return conditions;
}

function applyFilters(start: MergeRequestQuery, filters: MergeRequestFilters, viewer: AuthUser | null): MergeRequestQuery {
  let query = start;
  const nobody = sql<SqlBool>`1 = 0`;
  if (filters.scope === 'created_by_me') query = viewer ? query.where('m.author_id', '=', viewer.id) : query.where(nobody);
  if (filters.scope === 'assigned_to_me') query = viewer ? query.where(hasUser('merge_request_assignees', viewer.id)) : query.where(nobody);
  if (filters.scope === 'reviews_for_me') query = viewer ? query.where(hasUser('merge_request_reviewers', viewer.id)) : query.where(nobody);
  if (filters.state && filters.state !== 'all') query = query.where('m.state', '=', filters.state);
  if (filters.iids?.length) query = query.where('m.iid', 'in', filters.iids);
  if (filters.sourceBranch !== undefined) query = query.where('m.source_branch', '=', filters.sourceBranch);
  if (filters.targetBranch !== undefined) query = query.where('m.target_branch', '=', filters.targetBranch);
  if (filters.sourceProjectId !== undefined) query = query.where('m.source_project_id', '=', filters.sourceProjectId);
  if (filters.draft !== undefined) query = query.where('m.draft', '=', filters.draft ? 1 : 0);
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    const columns = filters.searchIn?.length ? filters.searchIn : ['title', 'description'];
    query = query.where(sql<SqlBool>`(${sql.join(columns.map((column) => lowerLike(`m.${column}`, pattern)), sql` or `)})`);
  }
  for (const condition of negatableConditions(filters, viewer)) query = query.where(condition);
  for (const condition of negatableConditions(filters.not ?? {}, viewer)) query = query.where(sql<SqlBool>`not (${condition})`);
  if (filters.createdAfter !== undefined) query = query.where('m.created_at', '>=', filters.createdAfter);
  if (filters.createdBefore !== undefined) query = query.where('m.created_at', '<=', filters.createdBefore);
  if (filters.updatedAfter !== undefined) query = query.where('m.updated_at', '>=', filters.updatedAfter);
  if (filters.updatedBefore !== undefined) query = query.where('m.updated_at', '<=', filters.updatedBefore);
  return order(query, filters.orderBy ?? 'created_at', filters.sort ?? 'desc');
}

/** GitLab's merge request sorts, each broken by the id in the same direction; missing values last. */
function order(query: MergeRequestQuery, orderBy: OrderBy, direction: 'asc' | 'desc'): MergeRequestQuery {
  const nullsLast = (expression: RawBuilder<unknown>) => query.orderBy(sql`case when ${expression} is null then 1 else 0 end`).orderBy(expression, direction).orderBy('m.id', direction);
  switch (orderBy) {
    case 'updated_at': return query.orderBy('m.updated_at', direction).orderBy('m.id', direction);
    case 'title': return query.orderBy(sql`lower(m.title)`, direction).orderBy('m.id', direction);
    case 'merged_at': return nullsLast(sql`m.merged_at`);
    case 'milestone_due': return nullsLast(sql`(select ms.due_date from milestones ms where ms.id = m.milestone_id)`);
    case 'priority':
    case 'label_priority':
      return nullsLast(sql`(select min(l.priority) from merge_request_label_links ll join labels l on l.id = ll.label_id where ll.merge_request_id = m.id)`);
    // No votes in Kiln: every merge request ties, the id decides.
    case 'popularity': return query.orderBy('m.id', direction);
    default: return query.orderBy('m.created_at', direction).orderBy('m.id', direction);
  }
}

/** Merge requests linked as closing this issue (merge_requests_closing_issues), on `merge_requests as m`. */
export function closingIssueCondition(issueId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`m.id in (select c.merge_request_id from merge_requests_closing_issues c where c.issue_id = ${issueId})`;
}

/** Issues linked as closed by this merge request, on `issues as i`. */
export function closedByMergeRequestCondition(mergeRequestId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`i.id in (select c.issue_id from merge_requests_closing_issues c where c.merge_request_id = ${mergeRequestId})`;
}

/**
 * For a page of merge requests, one statement: each one's latest diff version (its columns, null
 * without one) and its counts: comments (user notes), approvals, thumbs up and thumbs down.
 */
export function pageFactsQuery(db: Executor, ids: number[]) {
  return db
    .selectFrom('merge_requests as m')
    .leftJoin('merge_request_diffs as d', 'd.id', 'm.latest_merge_request_diff_id')
    .selectAll('d')
    .select((eb) => [
      'm.id as mr_id',
      eb.selectFrom('notes as n').select(eb.fn.countAll<number>().as('n')).whereRef('n.noteable_id', '=', 'm.id').where('n.noteable_type', '=', 'MergeRequest').where('n.system', '=', 0).as('notes_count'),
      eb.selectFrom('merge_request_approvals as a').select(eb.fn.countAll<number>().as('n')).whereRef('a.merge_request_id', '=', 'm.id').as('approvals_count'),
      eb.selectFrom('award_emoji as e').select(eb.fn.countAll<number>().as('n')).whereRef('e.awardable_id', '=', 'm.id').where('e.awardable_type', '=', 'MergeRequest').where('e.name', '=', UPVOTE).as('upvotes'),
      eb.selectFrom('award_emoji as e').select(eb.fn.countAll<number>().as('n')).whereRef('e.awardable_id', '=', 'm.id').where('e.awardable_type', '=', 'MergeRequest').where('e.name', '=', DOWNVOTE).as('downvotes'),
      eb.selectFrom('timelogs as t').select((t) => t.fn.sum<number | string | null>('t.time_spent').as('s')).whereRef('t.merge_request_id', '=', 'm.id').as('time_spent'),
    ])
    .where('m.id', 'in', ids)
    .execute();
}

/**
 * The people of a page of merge requests, one statement: the assignees and reviewers of each (kind
 * `assignee` / `reviewer`, with when they were added) and the users named by id (kind `user`:
 * authors, mergers, closers), each with the columns the entities show.
 */
export function pagePeopleQuery(db: Executor, ids: number[], userIds: number[]) {
  const assignees = db
    .selectFrom('merge_request_assignees as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([sql<string>`${sql.lit('assignee')}`.as('kind'), 'r.merge_request_id', 'r.created_at as added_at', 'u.id', 'u.username', 'u.name', 'u.state', 'u.avatar'])
    .where('r.merge_request_id', 'in', ids);
  const reviewers = db
    .selectFrom('merge_request_reviewers as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([sql<string>`${sql.lit('reviewer')}`.as('kind'), 'r.merge_request_id', 'r.created_at as added_at', 'u.id', 'u.username', 'u.name', 'u.state', 'u.avatar'])
    .where('r.merge_request_id', 'in', ids);
  const named = db
    .selectFrom('users as u')
    .select([sql<string>`${sql.lit('user')}`.as('kind'), sql<number>`0`.as('merge_request_id'), 'u.created_at as added_at', 'u.id', 'u.username', 'u.name', 'u.state', 'u.avatar'])
    .where('u.id', 'in', userIds.length ? userIds : [0]);
  return assignees.unionAll(reviewers).unionAll(named).execute();
}
