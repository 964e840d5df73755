// One query per search scope, where the search runs: everywhere the caller can see, in a group (and
// its subgroups), or in one project. Visibility is the owning feature's: readable projects from
// accounts, readable issues from the issue policy (confidential ones only for those it allows),
// users as GET /users lists them. Ordered as GitLab orders each scope.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { GroupAccess, ProjectAccess } from '../platform/auth/subjects.js';
import { canOnGroup, canOnInstance, canOnProject } from '../platform/auth/policies/index.js';
import { usersQuery, visibleProjectsQuery, containsPattern } from '../accounts/api.js';
import { confidentialScope, narrowIssueSearch, projectIssuesQuery, readableIssuesQuery } from '../issues/api.js';
import { groupWithDescendants, isGroupMember, isProjectMember } from './search-queries.js';
import { readableIssueSql } from '../platform/auth/policies/issue-visibility-queries.js';
import { projectMergeRequestsQuery, readableMergeRequestsQuery, type MergeRequestFilters } from '../merge-requests/api.js';

export type SearchWhere = { level: 'global' } | { level: 'group'; group: GroupAccess } | { level: 'project'; project: ProjectAccess };

export interface SearchFilters {
  term: string;
  state?: 'all' | 'opened' | 'closed' | 'merged';
  confidential?: boolean;
  orderBy?: 'created_at';
  sort?: 'asc' | 'desc';
}

async function groupIds(deps: Deps, where: SearchWhere): Promise<number[] | null> {
  return where.level === 'group' ? groupWithDescendants(deps.db, Number(where.group.group.id)) : null;
}

/** Projects the caller can read whose name or path contains the term. */
export async function projectsQuery(deps: Deps, viewer: AuthUser, where: SearchWhere, filters: SearchFilters) {
  const query = visibleProjectsQuery(deps, viewer, { search: filters.term });
  const ids = await groupIds(deps, where);
  return ids ? query.where('namespace_id', 'in', ids) : query;
}

/** Issues the caller may read; `#12` searches by iid, as GitLab's issuable_params. */
export async function issuesQuery(deps: Deps, viewer: AuthUser, where: SearchWhere, filters: SearchFilters) {
  const iid = /#(\d+)$/.exec(filters.term);
  const state = filters.state === 'opened' || filters.state === 'closed' ? filters.state : undefined;
  const issueFilters = await narrowIssueSearch(deps, {
    ...(iid ? { iids: [Number(iid[1])] } : { search: filters.term }),
    state,
    confidential: filters.confidential,
    orderBy: filters.orderBy ?? ('created_at' as const),
    sort: filters.sort ?? ('desc' as const),
  });
  if (where.level === 'project') {
    const access = where.project;
    const query = projectIssuesQuery(deps, Number(access.project.id), confidentialScope(access), issueFilters, viewer);
    return canOnProject(access, 'read_issue') ? query : query.where('i.id', '=', -1);
  }
  const ids = await groupIds(deps, where);
  return readableIssuesQuery(deps, viewer, ids ? { groupIds: ids } : { everywhere: true }, issueFilters);
}

/** Merge requests the caller may read whose title or description contains the term; `!12` searches by iid. */
export async function mergeRequestsQuery(deps: Deps, viewer: AuthUser, where: SearchWhere, filters: SearchFilters) {
  const iid = /!(\d+)$/.exec(filters.term);
  const mergeRequestFilters: MergeRequestFilters = {
    ...(iid ? { iids: [Number(iid[1])] } : { search: filters.term }),
    state: filters.state ?? 'all',
    orderBy: filters.orderBy ?? 'created_at',
    sort: filters.sort ?? 'desc',
  };
  if (where.level === 'project') {
    const access = where.project;
    const query = projectMergeRequestsQuery(deps, Number(access.project.id), mergeRequestFilters, viewer);
    return canOnProject(access, 'read_merge_request') ? query : query.where('m.id', '=', -1);
  }
  const ids = await groupIds(deps, where);
  return readableMergeRequestsQuery(deps, viewer, ids ? { groupIds: ids } : { everywhere: true }, mergeRequestFilters);
}

/** Project milestones whose title or description contains the term, in projects the caller can read. */
export async function milestonesQuery(deps: Deps, viewer: AuthUser, where: SearchWhere, filters: SearchFilters) {
  const pattern = containsPattern(filters.term.toLowerCase());
  let query = deps.db
    .selectFrom('milestones')
    .selectAll()
    .where('project_id', 'is not', null)
    .where((eb) => eb.or([eb(eb.fn('lower', ['title']), 'like', pattern), eb(eb.fn('lower', [eb.fn.coalesce('description', eb.val(''))]), 'like', pattern)]));
  if (where.level === 'project') {
    query = canOnProject(where.project, 'read_milestone') ? query.where('project_id', '=', Number(where.project.project.id)) : query.where('id', '=', -1);
  } else {
    const readable = (await projectsQuery(deps, viewer, where, { term: '' })).clearSelect().clearOrderBy().select('projects.id');
    query = query.where('project_id', 'in', readable);
  }
  if (filters.state === 'opened') query = query.where('state', '=', 'active');
  if (filters.state === 'closed') query = query.where('state', '=', 'closed');
  return query.orderBy('updated_at', 'desc').orderBy('id', 'desc');
}

/**
 * Users as GET /users finds them; in a group or project, only its members (inherited included), and
 * in a group only for whoever may read its members (GroupSearchResults#users: not those who read the
 * group through a project inside).
 */
export function usersSearchQuery(deps: Deps, viewer: AuthUser, where: SearchWhere, filters: SearchFilters) {
  const query = usersQuery(deps, viewer, { search: filters.term });
  if (!canOnInstance(viewer, 'read_users_list')) return query.where('id', '=', -1);
  if (where.level === 'group' && !canOnGroup(where.group, 'read_group_member')) return query.where('id', '=', -1);
  const nowMs = deps.clock.now();
  if (where.level === 'group') return query.where(isGroupMember(Number(where.group.group.id), nowMs));
  if (where.level === 'project') return query.where(isProjectMember(Number(where.project.project.id), Number(where.project.project.namespace_id), nowMs));
  return query;
}

/**
 * Comments (not system notes) on issues of the project that the caller may read, whose text contains
 * the term, most recently updated first (ProjectSearchResults#notes). The issue policy's SQL decides
 * which issues: a confidential issue's comments only for those who may read the issue.
 */
export function notesQuery(deps: Deps, viewer: AuthUser, access: ProjectAccess, filters: SearchFilters) {
  return deps.db
    .selectFrom('notes as n')
    .innerJoin('issues as i', 'i.id', 'n.noteable_id')
    .innerJoin('projects as p', 'p.id', 'i.project_id')
    .selectAll('n')
    .select('i.iid as noteable_iid')
    .where('n.noteable_type', '=', 'Issue')
    .where('n.system', '=', 0)
    .where('n.project_id', '=', Number(access.project.id))
    .where('i.project_id', '=', Number(access.project.id))
    .where((eb) => eb(eb.fn('lower', ['n.body']), 'like', containsPattern(filters.term.toLowerCase())))
    .where(readableIssueSql(viewer, deps.clock.now()))
    .orderBy('n.updated_at', 'desc')
    .orderBy('n.id', 'desc');
}
