// The members of a group or project, with their users, in the order they joined.
import type { Deps } from '../platform/deps.js';
import type { MemberSource } from './member-source.js';

export function listMembersQuery(deps: Deps, source: MemberSource) {
  return deps.db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.username', 'u.name', 'u.state', 'u.avatar', 'm.access_level', 'm.expires_at', 'm.created_at', 'm.created_by_id'])
    .where('m.source_type', '=', source.type)
    .where('m.source_id', '=', source.id)
    .orderBy('m.id');
}
