// The groups a user reaches, each with the user's level there, for pages that list groups to act in
// (the fork page's namespaces): one statement however many groups, where groupAccessLevel would ask
// once per group.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { NamespaceRow } from '../platform/auth/subjects.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { memberGroupLevelsSql } from '../platform/auth/membership-queries.js';
import { levelOn } from './access.js';
import { containsPattern } from './like-pattern.js';
import { nameOrPathLike } from './finders-queries.js';

/**
 * The groups `user` is a live member of, or is below one they are a member of, by full path (at most
 * `limit`, after `offset`), with the level groupAccessLevel would answer for each (administrators: Owner)
 * and `memberLevel`, the role the membership itself gives (what "Your groups" shows, an administrator's too);
 * with `search`, only those whose name or full path contains it.
 */
export async function memberGroupsWithLevels(executor: Executor, user: AuthUser, nowMs: number, limit: number, offset = 0, search?: string): Promise<Array<{ group: NamespaceRow; level: number; memberLevel: number }>> {
  let query = executor
    .selectFrom('namespaces')
    .innerJoin(sql<{ id: number; level: number }>`(${memberGroupLevelsSql(user.id, nowMs)})`.as('levels'), 'levels.id', 'namespaces.id')
    .selectAll('namespaces')
    .select('levels.level')
    .where('namespaces.kind', '=', 'group');
  // The levels subquery has no name or path column: the namespace's are meant unqualified.
  if (search) query = query.where(nameOrPathLike(containsPattern(search.toLowerCase())));
  const rows = await query
    .orderBy('namespaces.full_path')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(({ level, ...group }) => ({ group: group as NamespaceRow, level: levelOn(user, group as NamespaceRow, Number(level)), memberLevel: Number(level) }));
}
