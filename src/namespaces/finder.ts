// The namespaces a user can use (GitLab's User#namespaces for GET /namespaces): their personal
// namespace and the groups they are a direct member of (with owned_only, those they own);
// administrators see every namespace. Filters apply one after another, ordered by id as GitLab pages.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { NamespaceRow } from '../platform/auth/subjects.js';
import { canOnGroup, canOnInstance } from '../platform/auth/policies/index.js';
import { containsPattern, today } from '../accounts/api.js';

export interface NamespaceFilters {
  search?: string;
  ownedOnly?: boolean;
  topLevelOnly?: boolean;
  fullPathSearch?: boolean;
}

/** Ids of the groups the user is a direct, unexpired member of, and of their personal namespace. */
async function usableNamespaceIds(deps: Deps, user: AuthUser, ownedOnly: boolean): Promise<number[]> {
  const day = today(deps.clock.now());
  const memberships = await deps.db
    .selectFrom('members')
    .innerJoin('namespaces', 'namespaces.id', 'members.source_id')
    .select(['namespaces.id', 'namespaces.visibility', 'members.access_level'])
    .where('members.source_type', '=', 'Namespace')
    .where('members.user_id', '=', user.id)
    .where((eb) => eb.or([eb('members.expires_at', 'is', null), eb('members.expires_at', '>=', day)]))
    .execute();
  // "Owned" asks the group policy for admin_group, the Owner's ability, at the membership's level.
  const groups = memberships.filter((row) => !ownedOnly || canOnGroup({ user, level: Number(row.access_level), visibility: row.visibility }, 'admin_group'));
  const personal = await deps.db.selectFrom('namespaces').select('id').where('kind', '=', 'user').where('owner_id', '=', user.id).execute();
  return [...personal, ...groups].map((row) => Number(row.id));
}

export async function usableNamespacesQuery(deps: Deps, user: AuthUser, filters: NamespaceFilters) {
  let query = deps.db.selectFrom('namespaces').selectAll();
  if (!canOnInstance(user, 'admin_all_resources')) {
    const ids = await usableNamespaceIds(deps, user, filters.ownedOnly === true);
    query = ids.length ? query.where('id', 'in', ids) : query.where('id', '=', -1);
  }
  if (filters.topLevelOnly) query = query.where('parent_id', 'is', null);
  if (filters.search) {
    const pattern = containsPattern(filters.search.toLowerCase());
    const column = filters.fullPathSearch ? 'full_path_lower' : 'path';
    // Namespace.search: the name or the path (the full path with full_path_search) contains the text.
    query = query.where((eb) => eb.or([eb(eb.fn('lower', ['name']), 'like', pattern), eb(eb.fn('lower', [column]), 'like', pattern)]));
  }
  return query.orderBy('id', 'asc');
}

/** A namespace by id or full path, whatever the caller may see of it. */
export async function findNamespaceRow(deps: Deps, idOrPath: string): Promise<NamespaceRow | undefined> {
  const query = deps.db.selectFrom('namespaces').selectAll();
  if (/^\d+$/.test(idOrPath)) {
    const byId = await query.where('id', '=', Number(idOrPath)).executeTakeFirst();
    if (byId) return byId;
  }
  return query.where('full_path_lower', '=', idOrPath.toLowerCase()).executeTakeFirst();
}

/** Whether a path is taken among the namespaces directly under `parentId` (top-level ones for `null`). */
export async function pathTaken(deps: Deps, path: string, parentId: number | null): Promise<boolean> {
  let query = deps.db.selectFrom('namespaces').select('id').where((eb) => eb(eb.fn('lower', ['path']), '=', path.toLowerCase()));
  query = parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}
