// DELETE /…/members/:user_id: remove a direct member, or leave (GitLab's Members::DestroyService);
// a group's last Owner stays. Members inherited from an ancestor group are not members here: 404.
import { inTransaction } from '../platform/db/database.js';
import type { Deps } from '../platform/deps.js';
import { NotFoundError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import { authorizeMemberChange, type PolicySubject } from '../platform/auth/policies/index.js';
import { directLevel, lockMemberSource, otherOwners } from './member-facts.js';
import type { MemberSource } from './member-source.js';
import { publishMemberEvent } from './system-events.js';

export async function destroyMember(deps: Deps, actor: PolicySubject, source: MemberSource, userId: number): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    await lockMemberSource(trx, source);
    const currentLevel = await directLevel(trx, source, userId);
    if (currentLevel === null) throw new NotFoundError('Member');
    authorizeMemberChange({
      actor,
      source: source.type === 'Namespace' ? 'group' : 'project',
      targetUserId: userId,
      currentLevel,
      newLevel: null,
      otherOwners: source.type === 'Namespace' ? await otherOwners(trx, source.id, userId, deps.clock.now()) : 0,
    });
    // System hooks' user_remove_from_team/_group, while the membership can still be read.
    await publishMemberEvent(deps, trx, 'member.removed', source, userId, actor.user?.id ?? null);
    await trx.deleteFrom('members').where('source_type', '=', source.type).where('source_id', '=', source.id).where('user_id', '=', userId).execute();
    if (source.type === 'Project') await recordEvent(trx, deps.clock, { projectId: source.id, authorId: userId, action: 'left' });
  });
}
