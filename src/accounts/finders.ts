// Read queries for the accounts listings, each served by an index and bounded by pagination.
import { sql } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { canOnInstance } from '../platform/auth/policies/index.js';
import { authorizedProjectIdsSql, type NamespaceRow, type ProjectRow } from './access.js';
import { containsPattern } from './like-pattern.js';

export interface ProjectFilters {
  search?: string;
  membership?: boolean;
  visibility?: string;
  owned?: boolean;
  orderBy?: 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';
  sort?: 'asc' | 'desc';
}

/**
 * Projects the user can see (GitLab's ProjectsFinder for `GET /projects`): anonymous callers see
 * public projects only, and have no memberships to filter by.
 */
export function visibleProjectsQuery(deps: Deps, user: AuthUser | null, filters: ProjectFilters) {
  const now = deps.clock.now();
  let query = deps.db.selectFrom('projects').selectAll();
  if (!user) {
    query = filters.membership || filters.owned ? query.where(sql<boolean>`1 = 0`) : query.where('visibility', '=', 'public');
  } else if (filters.membership || filters.owned) {
    query = query.where(sql<boolean>`id in (${authorizedProjectIdsSql(user.id, now)})`);
  } else if (!canOnInstance(user, 'admin_all_resources')) {
    query = query.where(sql<boolean>`(visibility in ('public', 'internal') or id in (${authorizedProjectIdsSql(user.id, now)}))`);
  }
  if (filters.visibility) query = query.where('visibility', '=', filters.visibility as ProjectRow['visibility']);
  if (filters.search) {
    const pattern = containsPattern(filters.search.toLowerCase());
    query = query.where(sql<boolean>`(lower(name) like ${pattern} escape '\\' or full_path_lower like ${pattern} escape '\\')`);
  }
  const column = filters.orderBy ?? 'id';
  return query.orderBy(column, filters.sort ?? 'desc').orderBy('id', filters.sort ?? 'desc');
}

/**
 * Groups the user can see: public and internal ones, and those they are a member of (or under);
 * anonymous callers see public groups only.
 */
export function visibleGroupsQuery(deps: Deps, user: AuthUser | null, filters: { search?: string; topLevelOnly?: boolean; owned?: boolean }) {
  let query = deps.db.selectFrom('namespaces').selectAll().where('kind', '=', 'group');
  const memberGroups = sql<{ id: number }>`
    with recursive member_groups(id) as (
      select source_id from members where source_type = 'Namespace' and user_id = ${user?.id ?? 0}
      union
      select n.id from namespaces n join member_groups m on n.parent_id = m.id
    ) select id from member_groups`;
  if (!user) query = filters.owned ? query.where(sql<boolean>`1 = 0`) : query.where('visibility', '=', 'public');
  else if (filters.owned) query = query.where(sql<boolean>`id in (${memberGroups})`);
  else if (!canOnInstance(user, 'admin_all_resources')) query = query.where(sql<boolean>`(visibility in ('public', 'internal') or id in (${memberGroups}))`);
  if (filters.topLevelOnly) query = query.where('parent_id', 'is', null);
  if (filters.search) {
    const pattern = containsPattern(filters.search.toLowerCase());
    query = query.where(sql<boolean>`(lower(name) like ${pattern} escape '\\' or full_path_lower like ${pattern} escape '\\')`);
  }
  return query.orderBy('name').orderBy('id');
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
