// POST /…/members: add a user to a group or project as GitLab's Members::CreatorService does, with
// the member policy asked inside the transaction that writes (member-facts.ts).
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import type { Deps } from '../platform/deps.js';
import type { DbTransaction } from '../platform/db/statements.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import { authorizeMemberChange, validateAgainstInherited, type PolicySubject } from '../platform/auth/policies/index.js';
import { directLevel, inheritedMembership, lockMemberSource } from './member-facts.js';
import { validateMemberLevel, type AddMemberInput, type MemberSource } from './member-source.js';
import { insertMember } from './insert-member.js';
import { publishMemberEvent } from './system-events.js';

/** `within`: more writes of the same change, in its transaction once the member is written (an access request's approval). */
export async function createMember(deps: Deps, actor: PolicySubject, source: MemberSource, input: AddMemberInput, within?: (trx: DbTransaction) => Promise<void>) {
  validateMemberLevel(input.accessLevel);
  try {
    return await inTransaction(deps.db, async (trx) => {
      await lockMemberSource(trx, source);
      if ((await directLevel(trx, source, input.userId)) !== null) throw new ConflictError('Member already exists');
      const user = await trx.selectFrom('users').selectAll().where('id', '=', input.userId).executeTakeFirst();
      if (!user) throw new NotFoundError('User');
      authorizeMemberChange({
        actor,
        source: source.type === 'Namespace' ? 'group' : 'project',
        targetUserId: input.userId,
        currentLevel: null,
        newLevel: input.accessLevel,
        otherOwners: 0,
      });
      validateAgainstInherited(input.accessLevel, await inheritedMembership(trx, source, input.userId, deps.clock.now()));
      const member = await insertMember(trx, deps.clock, source, input, actor.user?.id ?? null);
      await publishMemberEvent(deps, trx, 'member.added', source, input.userId, actor.user?.id ?? null);
      await within?.(trx);
      // A pending access request is answered by the membership.
      await trx.deleteFrom('access_requests').where('source_type', '=', source.type).where('source_id', '=', source.id).where('user_id', '=', input.userId).execute();
      return { member, user };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('Member already exists');
    throw error;
  }
}
