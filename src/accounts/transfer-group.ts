// POST /groups/:id/transfer (GitLab's Groups::TransferService): a group moves under another group, or
// to the top level without `group_id`. Everything below moves with it, old paths keep redirecting, and
// what is more visible than the new parent is lowered to its visibility. Errors in GitLab's words.
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { GroupAccess } from '../platform/auth/subjects.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ApiError } from '../platform/http/api-error.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { authorizeGroup, canOnGroup, canOnInstance } from '../platform/auth/policies/index.js';
import type { NamespaceRow } from './access.js';
import { findGroup } from './lookup.js';
import { pathProblems } from './paths.js';
import { recordSubtreeRedirects } from './record-redirects.js';
import { releaseSubtree } from './release-redirects.js';
import { descendantPaths, moveDescendantPaths } from './rename-queries.js';
import { moreVisible } from './visibility.js';
import { lowerSubtreeVisibility } from './lower-subtree-visibility.js';
import { publishMemberEvent } from './system-events.js';

function failed(message: string): ApiError {
  return new ApiError(400, { message: `Transfer failed: ${message}` });
}

async function checkTransfer(deps: Deps, actor: Principal, access: GroupAccess, parent: GroupAccess | null): Promise<void> {
  const group = access.group;
  if (!parent && group.parent_id === null) throw failed('Group is already a root group.');
  if (parent && Number(parent.group.id) === Number(group.parent_id)) throw failed('Group is already associated to the parent group.');
  const allowed = canOnGroup(access, 'admin_group') && (parent ? canOnGroup(parent, 'create_subgroup') : canOnInstance(actor.user, 'create_group'));
  if (!allowed) throw failed("You don't have enough permissions.");
  const parentId = parent ? parent.group.id : null;
  let sameNamespace = deps.db.selectFrom('namespaces').select('id').where('path', '=', group.path).where('kind', '=', 'group');
  sameNamespace = parentId === null ? sameNamespace.where('parent_id', 'is', null) : sameNamespace.where('parent_id', '=', parentId);
  const sameProject = parentId === null ? undefined : await deps.db.selectFrom('projects').select('id').where('namespace_id', '=', parentId).where('path', '=', group.path).executeTakeFirst();
  if ((await sameNamespace.executeTakeFirst()) || sameProject) throw failed('The parent group already has a subgroup or a project with the same path.');
  if (parent && (Number(parent.group.id) === Number(group.id) || (await descendantPaths(deps.db, group.full_path)).some((d) => d.source_type === 'Namespace' && d.source_id === Number(parent.group.id)))) {
    throw failed('Cannot transfer group to one of its subgroup.');
  }
  if (!parent && pathProblems(group.path, true).length) throw failed(`${group.path} is a reserved name`);
}

export async function transferGroup(deps: Deps, actor: Principal, access: GroupAccess, parentId: number | undefined): Promise<NamespaceRow> {
  authorizeGroup(access, 'admin_group');
  const parent = parentId === undefined ? null : await findGroup(deps, actor, parentId);
  await checkTransfer(deps, actor, access, parent);
  const group = access.group;
  const newPath = parent ? `${parent.group.full_path}/${group.path}` : group.path;
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      await recordSubtreeRedirects(trx, Number(group.id), group.full_path, now);
      await moveDescendantPaths(trx, group.full_path, newPath);
      await releaseSubtree(trx, newPath);
      const changes: Record<string, unknown> = { parent_id: parent ? parent.group.id : null, full_path: newPath, full_path_lower: newPath.toLowerCase(), updated_at: now };
      if (parent) await lowerSubtreeVisibility(trx, newPath, parent.group.visibility);
      if (parent && moreVisible(group.visibility, parent.group.visibility)) changes.visibility = parent.group.visibility;
      const moved = await trx.updateTable('namespaces').set(changes).where('id', '=', group.id).returningAll().executeTakeFirstOrThrow();
      // A group moved to the top level keeps an Owner (GitLab's ensure_ownership).
      if (!parent) {
        const owner = await trx.selectFrom('members').select('id').where('source_type', '=', 'Namespace').where('source_id', '=', group.id).where('access_level', '=', ACCESS.owner).executeTakeFirst();
        if (!owner) {
          await trx.insertInto('members').values({ source_type: 'Namespace', source_id: group.id, user_id: actor.user.id, access_level: ACCESS.owner, expires_at: null, created_by_id: actor.user.id, created_at: now, updated_at: now }).execute();
          await publishMemberEvent(deps, trx, 'member.added', { type: 'Namespace', id: Number(group.id) }, actor.user.id, actor.user.id);
        }
      }
      return moved;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw failed('The parent group already has a subgroup or a project with the same path.');
    throw error;
  }
}
