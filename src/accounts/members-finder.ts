// The members of a group or project, with their users, in the order they joined; `query` (name or
// username), `user_ids` and `skip_users` narrow them as GitLab's members API does.
import type { Deps } from '../platform/deps.js';
import type { MemberSource } from './member-source.js';
import { userNameMatches } from './all-members-queries.js';

export interface MemberFilters {
  search?: string;
  userIds?: number[];
  skipUserIds?: number[];
}

export function listMembersQuery(deps: Deps, source: MemberSource, filters: MemberFilters = {}) {
  let query = deps.db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.username', 'u.name', 'u.state', 'u.avatar', 'm.access_level', 'm.expires_at', 'm.created_at', 'm.created_by_id'])
    .where('m.source_type', '=', source.type)
    .where('m.source_id', '=', source.id)
    .orderBy('m.id');
  if (filters.userIds?.length) query = query.where('u.id', 'in', filters.userIds);
  if (filters.skipUserIds?.length) query = query.where('u.id', 'not in', filters.skipUserIds);
  if (filters.search) query = query.where(userNameMatches(filters.search));
  return query;
}
