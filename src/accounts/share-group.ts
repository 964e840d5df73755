// POST /groups/:id/share (GitLab's Groups::GroupLinks::CreateService): invite a group to a group. The
// caller administers the shared group (the route's admin_group) and must be able to read the invited
// one (else 404, as GitLab). A group is not shared with itself, nor with a group above or below it
// (their members reach it already); one link per pair (409, GitLab's uniqueness message).
import { isUniqueViolation } from '../platform/db/database.js';
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { GroupAccess } from '../platform/auth/subjects.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import { findGroup } from './lookup.js';
import { validateGroupAccess } from './group-links.js';

export interface ShareInput {
  groupId: number;
  groupAccess: number;
  expiresAt?: string | null;
}

const DUPLICATE = 'Shared group The group has already been shared with this group';

function related(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

export async function shareGroup(deps: Deps, principal: Principal, shared: GroupAccess, input: ShareInput): Promise<void> {
  validateGroupAccess(input.groupAccess);
  const invited = (await findGroup(deps, principal, input.groupId)).group;
  if (related(shared.group.full_path.toLowerCase(), invited.full_path.toLowerCase())) {
    throw new ConflictError('Shared with group can not be the group itself, nor a group above or below it');
  }
  try {
    await deps.db.insertInto('group_group_links').values({
      shared_group_id: Number(shared.group.id),
      shared_with_group_id: Number(invited.id),
      group_access: input.groupAccess,
      expires_at: input.expiresAt ?? null,
      created_at: deps.clock.now(),
    }).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(DUPLICATE);
    throw error;
  }
}

/** DELETE /groups/:id/share/:group_id: the link goes ("404 Group Link Not Found" when there is none). */
export async function unshareGroup(deps: Deps, shared: GroupAccess, groupId: number): Promise<void> {
  const removed = await deps.db.deleteFrom('group_group_links')
    .where('shared_group_id', '=', Number(shared.group.id)).where('shared_with_group_id', '=', groupId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw new NotFoundError('Group Link');
}
