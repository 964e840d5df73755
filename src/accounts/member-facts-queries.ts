// The statements of member-facts.ts: recursive walks of the namespace chain, in the caller's transaction.
// The chain and the live-membership rule are platform/auth/membership-queries.ts's.
import { q, type Statement } from '../platform/db/statements.js';
import { LAST_OWNER_LEVEL } from '../platform/auth/policies/index.js';
import { today } from '../platform/auth/access-scope.js';
import { LIVE_MEMBERSHIP, namespaceChainText, templateOfText } from '../platform/auth/membership-queries.js';

const CHAIN = namespaceChainText('namespaces n where n.id = ?');

// Placeholders: the group.
const LOCK_TOP_GROUP = templateOfText(`${CHAIN}
    update namespaces set updated_at = updated_at where id = (select id from chain where parent_id is null)`);

/** Take the row lock of the hierarchy's top group (an update that changes nothing). */
export function lockTopGroup(groupId: number): Statement {
  return { strings: LOCK_TOP_GROUP, values: [groupId] };
}

// Placeholders: the group, the owner level, today, the group, the user.
const OTHER_OWNERS = templateOfText(`${CHAIN}
    select count(distinct m.user_id) as owners from chain c
      join members m on m.source_type = 'Namespace' and m.source_id = c.id
    where m.access_level = ?
      and ${LIVE_MEMBERSHIP}
      and not (m.source_id = ? and m.user_id = ?)`);

/** Owners of the group, direct or inherited, besides the user's own membership of this group. */
export function otherOwnersOf(groupId: number, userId: number, nowMs: number): Statement {
  return { strings: OTHER_OWNERS, values: [groupId, LAST_OWNER_LEVEL, today(nowMs), groupId, userId] };
}

/** Where the groups above a source start: a project's namespace. */
export function projectNamespace(projectId: number): Statement {
  return q`select namespace_id as start from projects where id = ${projectId}`;
}

/** Where the groups above a source start: a subgroup's parent. */
export function groupParent(groupId: number): Statement {
  return q`select parent_id as start from namespaces where id = ${groupId}`;
}

// Placeholders: the first group, the user, today.
const HIGHEST_ABOVE = templateOfText(`${CHAIN}
    select m.access_level as level, n.name as group_name from chain c
      join members m on m.source_type = 'Namespace' and m.source_id = c.id and m.user_id = ?
      join namespaces n on n.id = c.id
    where ${LIVE_MEMBERSHIP}
    order by m.access_level desc, c.id
    limit 1`);

/** The user's highest live membership of the group `start` and its ancestors, with that group's name. */
export function highestMembershipAbove(start: number, userId: number, nowMs: number): Statement {
  return { strings: HIGHEST_ABOVE, values: [start, userId, today(nowMs)] };
}
