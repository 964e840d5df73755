// What sharing with a group (GitLab's group_group_links and project_group_links) shares between its
// two actions of each kind: the levels a link may give, and the links shown on the shared group or
// project (GitLab's SharedGroupWithGroup entity).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { ParamError } from '../platform/errors.js';
import { VALID_MEMBER_LEVELS } from '../platform/auth/access-levels.js';
import { visibleGroupsQuery } from './finders.js';

/** A link's `group_access`: one of GitLab's role levels (Grape's `values:` check, in its words). */
export function validateGroupAccess(level: number): void {
  if (!VALID_MEMBER_LEVELS.includes(level)) throw new ParamError('group_access does not have a valid value');
}

export interface SharedWithGroup {
  group_id: number;
  group_name: string;
  group_full_path: string;
  group_access_level: number;
  expires_at: string | null;
}

/**
 * The groups a group or a project is shared with, those the viewer may see (GitLab shows only the
 * invited groups visible to the caller), by the invited group's id.
 */
export async function sharedWithGroups(deps: Deps, viewer: AuthUser | null, shared: { groupId: number } | { projectId: number }): Promise<SharedWithGroup[]> {
  const visible = visibleGroupsQuery(deps, viewer, {}).clearSelect().clearOrderBy().select('id');
  const rows = 'groupId' in shared
    ? await deps.db.selectFrom('group_group_links as l').innerJoin('namespaces as g', 'g.id', 'l.shared_with_group_id')
      .select(['g.id', 'g.name', 'g.full_path', 'l.group_access', 'l.expires_at'])
      .where('l.shared_group_id', '=', shared.groupId).where('g.id', 'in', visible).orderBy('g.id').execute()
    : await deps.db.selectFrom('project_group_links as l').innerJoin('namespaces as g', 'g.id', 'l.group_id')
      .select(['g.id', 'g.name', 'g.full_path', 'l.group_access', 'l.expires_at'])
      .where('l.project_id', '=', shared.projectId).where('g.id', 'in', visible).orderBy('g.id').execute();
  return rows.map((row) => ({
    group_id: Number(row.id),
    group_name: row.name,
    group_full_path: row.full_path,
    group_access_level: Number(row.group_access),
    expires_at: row.expires_at,
  }));
}
