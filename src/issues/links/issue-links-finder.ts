// The links of an issue, either way they point (GitLab's IssueLink.for_source_or_target), oldest
// first, and the issues at their other end as the caller may see them.
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canReadIssue } from '../../platform/auth/policies/index.js';
import { ForbiddenError, NotFoundError, RecordNotFoundError } from '../../platform/errors.js';
import { ApiError } from '../../platform/http/api-error.js';
import { assigneeIdsOf, type PolicyIssue } from '../finder.js';
import type { IssueRow } from '../entities.js';

export interface IssueLinkRow {
  id: number;
  source_id: number;
  target_id: number;
  link_type: 'relates_to' | 'blocks';
  created_at: number;
  updated_at: number;
}

export function linksOfIssue(db: Executor, issueId: number): Promise<IssueLinkRow[]> {
  return db.selectFrom('issue_links').selectAll().where((eb) => eb.or([eb('source_id', '=', issueId), eb('target_id', '=', issueId)])).orderBy('id').execute();
}

/** The link between two issues, whichever way it points. */
export function linkBetween(db: Executor, oneId: number, otherId: number): Promise<IssueLinkRow | undefined> {
  return db
    .selectFrom('issue_links')
    .selectAll()
    .where((eb) => eb.or([eb.and([eb('source_id', '=', oneId), eb('target_id', '=', otherId)]), eb.and([eb('source_id', '=', otherId), eb('target_id', '=', oneId)])]))
    .executeTakeFirst();
}

/** A link of this issue by its id: GitLab answers `404 Not found` for any other. */
export async function findLinkOfIssue(db: Executor, issueId: number, linkId: number): Promise<IssueLinkRow> {
  const link = await db
    .selectFrom('issue_links')
    .selectAll()
    .where('id', '=', linkId)
    .where((eb) => eb.or([eb('source_id', '=', issueId), eb('target_id', '=', issueId)]))
    .executeTakeFirst();
  if (!link) throw new RecordNotFoundError();
  return link;
}

/** The link type as seen from `issueId`: a `blocks` link pointing at it reads `is_blocked_by`. */
export function linkTypeFrom(link: IssueLinkRow, issueId: number): 'relates_to' | 'blocks' | 'is_blocked_by' {
  if (link.link_type === 'blocks' && Number(link.target_id) === issueId) return 'is_blocked_by';
  return link.link_type;
}

/**
 * The caller's access to the project of `issue` (the route's own when it is that one), or null when
 * they cannot read its issues.
 */
export async function projectAccessOf(deps: Deps, principal: Principal | null, projectId: number, known: ProjectAccess): Promise<ProjectAccess | null> {
  if (Number(known.project.id) === projectId) return known;
  try {
    return await deps.auth.subjects!.project(principal, projectId, 'read_issue');
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof RecordNotFoundError || error instanceof ForbiddenError) return null;
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return null;
    throw error;
  }
}

/** The issue with its assignees and its project's access when the caller may read it, else null. */
export async function readableIssue(deps: Deps, principal: Principal | null, issue: IssueRow, known: ProjectAccess): Promise<{ issue: PolicyIssue; access: ProjectAccess } | null> {
  const access = await projectAccessOf(deps, principal, Number(issue.project_id), known);
  if (!access) return null;
  const facts: PolicyIssue = { ...issue, assigneeIds: await assigneeIdsOf(deps.db, Number(issue.id)) };
  return canReadIssue(access, facts) ? { issue: facts, access } : null;
}

export interface RelatedIssue {
  link: IssueLinkRow;
  /** The issue at the other end and its project's access. */
  issue: PolicyIssue;
  access: ProjectAccess;
  /** The link type as seen from the issue asked about. */
  linkType: 'relates_to' | 'blocks' | 'is_blocked_by';
}

/** The issues linked to `issue` that the caller may read, in the order they were linked (IssueLinks::ListService). */
export async function relatedIssues(deps: Deps, principal: Principal | null, issue: IssueRow, access: ProjectAccess): Promise<RelatedIssue[]> {
  const related: RelatedIssue[] = [];
  for (const link of await linksOfIssue(deps.db, Number(issue.id))) {
    const otherId = Number(link.source_id) === Number(issue.id) ? link.target_id : link.source_id;
    const other = await deps.db.selectFrom('issues').selectAll().where('id', '=', otherId).executeTakeFirst();
    const end = other ? await readableIssue(deps, principal, other, access) : null;
    if (end) related.push({ link, ...end, linkType: linkTypeFrom(link, Number(issue.id)) });
  }
  return related;
}
