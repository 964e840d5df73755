// What a member change is decided on, read inside the change's transaction after it has locked the
// membership source: concurrent changes of one group then see each other's commits, so two demotions
// of the last two Owners cannot both pass (the second counts one Owner left and is refused).
import type { DbTransaction } from '../platform/db/database.js';
import type { InheritedMembership } from '../platform/auth/policies/index.js';
import { lockProject } from './lock-project.js';
import type { MemberSource } from './member-source.js';
import { groupParent, highestMembershipAbove, lockTopGroup, otherOwnersOf, projectNamespace } from './member-facts-queries.js';

/**
 * Serialise the member changes of one hierarchy: a project's take the project row's lock; a group's
 * take the lock of the hierarchy's top group, because the last-Owner rule counts the Owners of every
 * ancestor and siblings share them. One row per change, so two changes never wait on each other in
 * opposite orders. (On SQLite the update takes the database's write lock at once.)
 */
export async function lockMemberSource(trx: DbTransaction, source: MemberSource): Promise<void> {
  if (source.type === 'Project') return lockProject(trx, source.id);
  await trx.all(lockTopGroup(source.id));
}

/** The user's own membership of the source (not one inherited from an ancestor): its level, or null. */
export async function directLevel(trx: DbTransaction, source: MemberSource, userId: number): Promise<number | null> {
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
export async function otherOwners(trx: DbTransaction, groupId: number, userId: number, nowMs: number): Promise<number> {
  const rows = await trx.all<{ owners: number }>(otherOwnersOf(groupId, userId, nowMs));
  return Number(rows[0]?.owners ?? 0);
}

/**
 * The user's highest membership of a group above the source (the project's namespace and its
 * ancestors; a subgroup's parent and its ancestors), with that group's name for GitLab's message.
 */
export async function inheritedMembership(trx: DbTransaction, source: MemberSource, userId: number, nowMs: number): Promise<InheritedMembership | null> {
  const [first] = await trx.all<{ start: number | null }>(source.type === 'Project' ? projectNamespace(source.id) : groupParent(source.id));
  if (first?.start === null || first?.start === undefined) return null;
  const rows = await trx.all<{ level: number; group_name: string }>(highestMembershipAbove(Number(first.start), userId, nowMs));
  return rows[0] ? { level: Number(rows[0].level), groupName: rows[0].group_name } : null;
}
