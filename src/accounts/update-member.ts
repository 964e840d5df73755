// PUT /…/members/:user_id: change a direct member's access level or expiry (GitLab's
// Members::UpdateService). Members inherited from an ancestor group are not members here: 404.
import { inTransaction } from '../platform/db/database.js';
import type { Deps } from '../platform/deps.js';
import { NotFoundError } from '../platform/errors.js';
import { authorizeMemberChange, validateAgainstInherited, type PolicySubject } from '../platform/auth/policies/index.js';
import { directLevel, inheritedMembership, lockMemberSource, otherOwners } from './member-facts.js';
import { validateMemberLevel, type MemberSource } from './member-source.js';
import { publishMemberEvent } from './system-events.js';

export interface UpdateMemberInput {
  accessLevel: number;
  expiresAt?: string | null;
}

export async function updateMember(deps: Deps, actor: PolicySubject, source: MemberSource, userId: number, input: UpdateMemberInput) {
  validateMemberLevel(input.accessLevel);
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    await lockMemberSource(trx, source);
    const currentLevel = await directLevel(trx, source, userId);
    if (currentLevel === null) throw new NotFoundError('Member');
    authorizeMemberChange({
      actor,
      source: source.type === 'Namespace' ? 'group' : 'project',
      targetUserId: userId,
      currentLevel,
      newLevel: input.accessLevel,
      otherOwners: source.type === 'Namespace' ? await otherOwners(trx, source.id, userId, now) : 0,
    });
    validateAgainstInherited(input.accessLevel, await inheritedMembership(trx, source, userId, now));
    const changes: { access_level: number; updated_at: number; expires_at?: string | null } = { access_level: input.accessLevel, updated_at: now };
    if (input.expiresAt !== undefined) changes.expires_at = input.expiresAt;
    const updated = await trx
      .updateTable('members')
      .set(changes)
      .where('source_type', '=', source.type)
      .where('source_id', '=', source.id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await publishMemberEvent(deps, trx, 'member.updated', source, userId, actor.user?.id ?? null);
    return updated;
  });
}
