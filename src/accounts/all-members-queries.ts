// GET /:kind/:id/members/all (GitLab's MembersFinder with inherited and invited members): the live
// members of a project or group and of every group above it, a personal project's owner as Owner, the
// members of the groups it (or a group above it) is shared with at the link's level at most, each user
// once with the highest access level any of these gives (platform/auth/membership-queries.ts).
import { sql } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { today } from './access.js';
import { INVITED_MEMBERS, invitedGroupsText, templateOfText } from '../platform/auth/membership-queries.js';
import type { MemberSource } from './member-source.js';
import { containsPattern } from './like-pattern.js';

const INVITED_GROUP = templateOfText(invitedGroupsText());
const INVITED_PROJECT = templateOfText(invitedGroupsText('?'));
const INVITED = templateOfText(INVITED_MEMBERS);

/** `namespaceId`: the project's namespace, or the group itself (its own members come from the chain). */
export function allMembersQuery(deps: Deps, source: MemberSource, namespaceId: number, filters: { search?: string; userIds?: number[] } = {}) {
  const live = today(deps.clock.now());
  const direct = source.type === 'Project'
    ? sql`select user_id, access_level, expires_at, created_at from members
        where source_type = 'Project' and source_id = ${source.id} and (expires_at is null or expires_at >= ${live}) union all`
    : sql``;
  // The groups invited to the chain's groups, and with a project to the project (placeholders: today, then the project and today).
  const invited = source.type === 'Project'
    ? sql(INVITED_PROJECT, live, source.id, live)
    : sql(INVITED_GROUP, live);
  const rows = sql<{ user_id: number; access_level: number; expires_at: string | null; created_at: number }>`(
    with recursive chain(id, parent_id, owner_id, created_at) as (
      select id, parent_id, owner_id, created_at from namespaces where id = ${namespaceId}
      union all
      select n.id, n.parent_id, n.owner_id, n.created_at from namespaces n join chain c on n.id = c.parent_id
    )${invited}
    ${direct}
    select m.user_id, m.access_level, m.expires_at, m.created_at from chain c join members m on m.source_type = 'Namespace' and m.source_id = c.id
      where m.expires_at is null or m.expires_at >= ${live}
    union all
    select owner_id, 50, null, created_at from chain where owner_id is not null
    union all
    ${sql(INVITED, live)}
  )`;
  let query = deps.db
    .selectFrom(rows.as('a'))
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['u.id', 'u.username', 'u.name', 'u.state', 'u.avatar'])
    .select((eb) => [eb.fn.max('a.access_level').as('access_level'), eb.fn.max('a.expires_at').as('expires_at'), eb.fn.min('a.created_at').as('created_at')])
    .groupBy(['u.id', 'u.username', 'u.name', 'u.state', 'u.avatar'])
    .orderBy('u.id');
  if (filters.userIds?.length) query = query.where('u.id', 'in', filters.userIds);
  if (filters.search) query = query.where(userNameMatches(filters.search));
  return query;
}

/** A member's user (`u`) whose name or username contains `search`, case-insensitively (the members API's `query`). */
export function userNameMatches(search: string) {
  const pattern = containsPattern(search.toLowerCase());
  return sql<boolean>`(lower(u.name) like ${pattern} escape '\\' or u.username_lower like ${pattern} escape '\\')`;
}
