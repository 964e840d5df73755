// The statements of the access checks every request makes (access.ts), as raw SQL through the row
// cache: the query builder's per-query work cost as much as running them (docs/performance.md). The
// membership rules are platform/auth/membership-queries.ts's, put together here into one statement each.
import type { Statement } from '../platform/db/statements.js';
import type { CachedTable } from '../platform/db/reads.js';
import { chainLevelText, invitedGroupsText, invitedLevelText, namespaceChainText, projectMemberLevelText, templateOfText } from '../platform/auth/membership-queries.js';
import { today } from '../platform/auth/access-scope.js';

/** What the level statements read (the row cache, platform/db/reads.ts). */
export const LEVEL_TABLES: readonly CachedTable[] = ['namespaces', 'members', 'group_group_links', 'project_group_links'];

const CHAIN = namespaceChainText('namespaces n where n.id = ?');

// Placeholders: the group, today (links), the user, today, the user, today.
const GROUP_LEVEL = templateOfText(`${CHAIN}${invitedGroupsText()} select ${chainLevelText('?')} as level, ${invitedLevelText('?')} as shared_level`);

/** The user's highest membership level on a group and its ancestors (`level`), and through the groups invited to them (`shared_level`). */
export function groupLevelStatement(groupId: number, userId: number, nowMs: number): Statement {
  const live = today(nowMs);
  return { strings: GROUP_LEVEL, values: [groupId, live, userId, live, userId, live] };
}

// Placeholders: the namespace (chain), today (group links), the project, today (project links), the
// user, the project, today, the user, today, the user, today, the namespace.
const PROJECT_ACCESS = templateOfText(`${CHAIN}${invitedGroupsText('?')}
    select ns.*, ${projectMemberLevelText('?', '?')} as project_level, ${chainLevelText('?')} as group_level,
      ${invitedLevelText('?')} as shared_level
    from namespaces ns where ns.id = ?`);

/**
 * The project's namespace with the user's levels on the project (its own members), on the namespace
 * chain, and through the groups the project or the chain is shared with. Scalar subqueries instead of one OR'ed subquery: SQLite ran the OR/IN form at
 * ~80 µs, this at ~7.
 */
export function projectAccessStatement(project: { id: number; namespace_id: number }, userId: number, nowMs: number): Statement {
  const live = today(nowMs);
  return { strings: PROJECT_ACCESS, values: [project.namespace_id, live, project.id, live, userId, project.id, live, userId, live, userId, live, project.namespace_id] };
}
