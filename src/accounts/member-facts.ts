// What a member change is decided on, read inside the change's transaction after it has locked the
// membership source: concurrent changes of one group then see each other's commits, so two demotions
// of the last two Owners cannot both pass (the second counts one Owner left and is refused).
import type { Transaction } from 'kysely';
import type { DB } from '../platform/db/schema.js';
import { q, sqlRunner } from '../platform/db/reads.js';
import { LAST_OWNER_LEVEL, type InheritedMembership } from '../platform/auth/policies/index.js';
import { lockProject } from './lock-project.js';
import { today } from './access.js';
import type { MemberSource } from './members.js';

/**
 * Serialise the member changes of one hierarchy: a project's take the project row's lock; a group's
 * take the lock of the hierarchy's top group, because the last-Owner rule counts the Owners of every
 * ancestor and siblings share them. One row per change, so two changes never wait on each other in
 * opposite orders. (On SQLite the update takes the database's write lock at once.)
 */
export async function lockMemberSource(trx: Transaction<DB>, source: MemberSource): Promise<void> {
  if (source.type === 'Project') return lockProject(trx, source.id);
  await sqlRunner(trx).all(q`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${source.id}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    update namespaces set updated_at = updated_at where id = (select id from chain where parent_id is null)`);
}

/** The user's own membership of the source (not one inherited from an ancestor): its level, or null. */
export async function directLevel(trx: Transaction<DB>, source: MemberSource, userId: number): Promise<number | null> {
  const row = await trx
    .selectFrom('members')
    .select('access_level')
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? Number(row.access_level) : null;
}

/** Owners of the group, direct or inherited, besides the user's own membership of this group. */
export async function otherOwners(trx: Transaction<DB>, groupId: number, userId: number, nowMs: number): Promise<number> {
  const rows = await sqlRunner(trx).all<{ owners: number }>(q`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${groupId}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    select count(distinct m.user_id) as owners from chain c
      join members m on m.source_type = 'Namespace' and m.source_id = c.id
    where m.access_level = ${LAST_OWNER_LEVEL}
      and (m.expires_at is null or m.expires_at >= ${today(nowMs)})
      and not (m.source_id = ${groupId} and m.user_id = ${userId})`);
  return Number(rows[0]?.owners ?? 0);
}

/**
 * The user's highest membership of a group above the source (the project's namespace and its
 * ancestors; a subgroup's parent and its ancestors), with that group's name for GitLab's message.
 */
export async function inheritedMembership(trx: Transaction<DB>, source: MemberSource, userId: number, nowMs: number): Promise<InheritedMembership | null> {
  const runner = sqlRunner(trx);
  const [first] = source.type === 'Project'
    ? await runner.all<{ start: number | null }>(q`select namespace_id as start from projects where id = ${source.id}`)
    : await runner.all<{ start: number | null }>(q`select parent_id as start from namespaces where id = ${source.id}`);
  if (first?.start === null || first?.start === undefined) return null;
  const rows = await runner.all<{ level: number; group_name: string }>(q`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${Number(first.start)}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    select m.access_level as level, n.name as group_name from chain c
      join members m on m.source_type = 'Namespace' and m.source_id = c.id and m.user_id = ${userId}
      join namespaces n on n.id = c.id
    where m.expires_at is null or m.expires_at >= ${today(nowMs)}
    order by m.access_level desc, c.id
    limit 1`);
  return rows[0] ? { level: Number(rows[0].level), groupName: rows[0].group_name } : null;
}
