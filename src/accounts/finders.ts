// Read queries for the accounts listings, each served by an index and bounded by pagination.
import type { CompiledQuery, QueryCreator } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { DB } from '../platform/db/schema.js';
import { COUNT_LIMIT } from '../platform/http/pagination.js';
import { pageWithCountQuery } from '../platform/http/pagination-queries.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { canOnInstance } from '../platform/auth/policies/index.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import type { NamespaceRow, ProjectRow } from './access.js';
import { inMemberProjectsCte, memberProjects, memberProjectsCteBody, nameOrPathLike, namespaceVersion, noRows, ownedGroupsOnly, visibleOrMemberGroups, visibleOrMemberProjects } from './finders-queries.js';
import { containsPattern } from './like-pattern.js';

export interface ProjectFilters {
  search?: string;
  membership?: boolean;
  visibility?: string;
  /** Only the projects the caller owns (GitLab's User#owned_projects): personal ones and those where they are Owner. */
  owned?: boolean;
  /** Only projects the caller starred (anonymous callers starred none). */
  starred?: boolean;
  orderBy?: 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at' | 'star_count';
  sort?: 'asc' | 'desc';
  /** Only projects listing every one of these topics (names, whatever the case). */
  topics?: string[];
  topicId?: number;
}

/**
 * Projects the user can see (GitLab's ProjectsFinder for `GET /projects`): anonymous callers see
 * public projects only, and have no memberships to filter by.
 */
export function visibleProjectsQuery(deps: Deps, user: AuthUser | null, filters: ProjectFilters, from: ProjectsFrom = { db: deps.db, memberSet: false }) {
  const now = deps.clock.now();
  let query = from.db.selectFrom('projects').selectAll();
  if (!user) {
    query = filters.membership || filters.owned ? query.where(noRows()) : query.where('visibility', '=', 'public');
  } else if (filters.owned) {
    // GitLab's ProjectsFinder answers `owned` with User#owned_projects: the caller's effective Owner
    // level, not any membership (a Developer's project is not theirs), administrators included.
    query = query.where(memberProjects(user.id, now, ACCESS.owner));
  } else if (filters.membership) {
    query = query.where(from.memberSet ? inMemberProjectsCte() : memberProjects(user.id, now));
  } else if (!canOnInstance(user, 'admin_all_resources')) {
    query = query.where(visibleOrMemberProjects(user.id, now));
  }
  if (filters.visibility) query = query.where('visibility', '=', filters.visibility as ProjectRow['visibility']);
  if (filters.search) {
    const pattern = containsPattern(filters.search.toLowerCase());
    query = query.where(nameOrPathLike(pattern));
  }
  for (const name of filters.topics ?? []) {
    query = query.where('id', 'in', deps.db.selectFrom('project_topics').innerJoin('topics', 'topics.id', 'project_topics.topic_id').select('project_topics.project_id').where('topics.name_lower', '=', name.toLowerCase()));
  }
  if (filters.topicId !== undefined) query = query.where('id', 'in', deps.db.selectFrom('project_topics').select('project_id').where('topic_id', '=', filters.topicId));
  if (filters.starred) query = query.where('id', 'in', deps.db.selectFrom('users_star_projects').select('project_id').where('user_id', '=', user?.id ?? 0));
  const column = filters.orderBy ?? 'id';
  return query.orderBy(column, filters.sort ?? 'desc').orderBy('id', filters.sort ?? 'desc');
}

/**
 * The keys of `visibleProjectsQuery`'s rows (ProjectJsonKey, and the upstream a fork names): what a
 * listing needs to find the kept entities. A project row is 40 columns, and reading them was most of
 * a page's statement (20 rows: ~200 µs of ~260 on SQLite) when the entities are kept anyway.
 */
export function visibleProjectKeysQuery(deps: Deps, user: AuthUser | null, filters: ProjectFilters, from?: ProjectsFrom) {
  return visibleProjectsQuery(deps, user, filters, from).clearSelect().select(['id', 'version', 'namespace_id', 'forked_from_project_id', namespaceVersion().as('namespace_version')]);
}

/**
 * Where visibleProjectsQuery reads from: the database, or a statement whose WITH holds the caller's
 * projects (`member_projects`, memberProjectIdsSql), which `memberSet` makes `membership` read.
 */
interface ProjectsFrom {
  db: QueryCreator<DB>;
  memberSet: boolean;
}

/**
 * The page statement (pagination.ts, a `OnePass`) of the caller's projects by membership: the keys
 * of visibleProjectKeysQuery with the bounded count, the set of the projects they reach computed
 * once, as a materialized CTE at the statement's head that the page and the count both read. Written
 * in each (`id in (…)` twice), PostgreSQL computed the set twice, planned anew on every run (2,000
 * projects: ~3,400 µs of backend CPU a page against ~2,200). Null for other listings.
 */
export function memberProjectKeysPage(deps: Deps, user: AuthUser | null, filters: ProjectFilters): ((perPage: number, offset: number) => CompiledQuery<unknown>) | null {
  if (!user || !filters.membership || filters.owned) return null;
  const db = deps.db.withRecursive((cte) => cte('member_projects(id)').materialized(), () => memberProjectsCteBody(user.id, deps.clock.now())) as unknown as QueryCreator<DB>;
  const page = visibleProjectKeysQuery(deps, user, filters, { db, memberSet: true });
  const counted = visibleProjectKeysQuery(deps, user, filters, { db: deps.db, memberSet: true });
  return (perPage, offset) => pageWithCountQuery(page, perPage, offset, COUNT_LIMIT, counted).compile();
}

/**
 * Groups the user can see: public and internal ones, and those they are a member of (or under);
 * anonymous callers see public groups only. `owned` keeps the groups the user is a direct Owner of
 * (GitLab's GroupsFinder answers `owned` with User#owned_groups), whoever the user is.
 */
export function visibleGroupsQuery(deps: Deps, user: AuthUser | null, filters: { search?: string; topLevelOnly?: boolean; owned?: boolean }) {
  let query = deps.db.selectFrom('namespaces').selectAll().where('kind', '=', 'group');
  const now = deps.clock.now();
  if (!user) query = filters.owned ? query.where(noRows()) : query.where('visibility', '=', 'public');
  else if (filters.owned) query = query.where(ownedGroupsOnly(user.id, now));
  else if (!canOnInstance(user, 'admin_all_resources')) query = query.where(visibleOrMemberGroups(user.id, now));
  if (filters.topLevelOnly) query = query.where('parent_id', 'is', null);
  if (filters.search) {
    const pattern = containsPattern(filters.search.toLowerCase());
    query = query.where(nameOrPathLike(pattern));
  }
  return query.orderBy('name').orderBy('id');
}

/** The rows of `ids`' projects, in one query (those that exist). */
export async function projectsByIds(deps: Deps, ids: number[]): Promise<ProjectRow[]> {
  return ids.length === 0 ? [] : deps.db.selectFrom('projects').selectAll().where('id', 'in', ids).execute();
}

/** The namespaces of a page of projects, in one query. */
export async function namespacesOf(deps: Deps, projects: ProjectRow[]): Promise<Map<number, NamespaceRow>> {
  const ids = [...new Set(projects.map((project) => Number(project.namespace_id)))];
  if (ids.length === 0) return new Map();
  const rows = await deps.db.selectFrom('namespaces').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [Number(row.id), row]));
}

export async function namespaceOf(deps: Deps, project: ProjectRow): Promise<NamespaceRow> {
  return deps.db.selectFrom('namespaces').selectAll().where('id', '=', project.namespace_id).executeTakeFirstOrThrow();
}
