// What GET /groups/:id/projects, /subgroups and /descendant_groups list (GitLab's GroupProjectsFinder
// and GroupsFinder with a parent): what the caller may see, in the group (and below it, when asked),
// and the projects shared with the group.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { today, type NamespaceRow } from './access.js';
import { visibleGroupsQuery, visibleProjectsQuery, type ProjectFilters } from './finders.js';
import { descendantPaths } from './rename-queries.js';

export interface GroupProjectFilters extends ProjectFilters {
  includeSubgroups?: boolean;
  withIssuesEnabled?: boolean;
  /** The projects shared with the group too (GitLab's `with_shared`, true unless false). */
  withShared?: boolean;
}

async function subgroupIds(deps: Deps, group: NamespaceRow): Promise<number[]> {
  return (await descendantPaths(deps.db, group.full_path)).filter((path) => path.source_type === 'Namespace').map((path) => path.source_id);
}

export async function groupProjectsQuery(deps: Deps, user: AuthUser | null, group: NamespaceRow, filters: GroupProjectFilters) {
  const namespaceIds = [Number(group.id), ...(filters.includeSubgroups ? await subgroupIds(deps, group) : [])];
  let query = visibleProjectsQuery(deps, user, { ...filters, orderBy: filters.orderBy ?? 'created_at' });
  if (filters.withShared === false) query = query.where('namespace_id', 'in', namespaceIds);
  else {
    // A link counts while unexpired, as in the access checks (platform/auth/membership-queries.ts).
    const day = today(deps.clock.now());
    const shared = deps.db.selectFrom('project_group_links').select('project_id').where('group_id', '=', Number(group.id))
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>=', day)]));
    query = query.where((eb) => eb.or([eb('namespace_id', 'in', namespaceIds), eb('id', 'in', shared)]));
  }
  if (filters.withIssuesEnabled) query = query.where('issues_access_level', '!=', 'disabled');
  return query;
}

export interface SubgroupFilters {
  search?: string;
  owned?: boolean;
  skipGroups?: number[];
  orderBy?: 'name' | 'path' | 'id';
  sort?: 'asc' | 'desc';
}

/** Direct subgroups (`descendants: false`) or every group below (`true`) that the caller can see. */
export async function subgroupsQuery(deps: Deps, user: AuthUser | null, group: NamespaceRow, descendants: boolean, filters: SubgroupFilters) {
  let query = visibleGroupsQuery(deps, user, { search: filters.search, owned: filters.owned }).clearOrderBy();
  if (descendants) {
    const ids = await subgroupIds(deps, group);
    query = query.where('id', 'in', ids.length ? ids : [0]);
  } else {
    query = query.where('parent_id', '=', group.id);
  }
  if (filters.skipGroups?.length) query = query.where('id', 'not in', filters.skipGroups);
  const sort = filters.sort ?? 'asc';
  return query.orderBy(filters.orderBy ?? 'name', sort).orderBy('id', sort);
}
