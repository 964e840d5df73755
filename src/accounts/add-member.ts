// Add a member without asking any policy: for seeding and trusted callers (routes use createMember).
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import { validateMemberLevel, type AddMemberInput, type MemberSource } from './member-source.js';
import { insertMember } from './insert-member.js';
import { publishMemberEvent } from './system-events.js';

export async function addMember(deps: Deps, actorId: number, source: MemberSource, input: AddMemberInput) {
  validateMemberLevel(input.accessLevel);
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', input.userId).executeTakeFirst();
  if (!user) throw new NotFoundError('User');
  try {
    const member = await inTransaction(deps.db, async (trx) => {
      const row = await insertMember(trx, deps.clock, source, input, actorId);
      await publishMemberEvent(deps, trx, 'member.added', source, input.userId, actorId);
      return row;
    });
    return { member, user };
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('Member already exists');
    throw error;
  }
}
