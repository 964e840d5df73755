// Group and project membership: add, change, remove, with join/leave events for projects.
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import type { Deps } from '../platform/deps.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { recordEvent } from '../events/record-event.js';
import { VALID_MEMBER_LEVELS } from '../platform/auth/access-levels.js';
import { isoTime } from '../platform/clock.js';
import { userBasic } from './user-entities.js';
import type { UserRow } from './lookup.js';

export type MemberSource = { type: 'Namespace' | 'Project'; id: number };

export interface AddMemberInput {
  userId: number;
  accessLevel: number;
  expiresAt?: string | null;
}

function validate(input: { accessLevel: number }): void {
  if (!VALID_MEMBER_LEVELS.includes(input.accessLevel)) throw new ValidationError({ access_level: ['is not included in the list'] });
}

export async function addMember(deps: Deps, actorId: number, source: MemberSource, input: AddMemberInput) {
  validate(input);
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', input.userId).executeTakeFirst();
  if (!user) throw new NotFoundError('User');
  const now = deps.clock.now();
  try {
    const member = await inTransaction(deps.db, async (trx) => {
      const row = await trx
        .insertInto('members')
        .values({ source_type: source.type, source_id: source.id, user_id: input.userId, access_level: input.accessLevel, expires_at: input.expiresAt ?? null, created_by_id: actorId, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (source.type === 'Project') await recordEvent(trx, deps.clock, { projectId: source.id, authorId: input.userId, action: 'joined' });
      return row;
    });
    return { member, user };
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('Member already exists');
    throw error;
  }
}

export async function updateMember(deps: Deps, source: MemberSource, userId: number, input: { accessLevel: number; expiresAt?: string | null }) {
  validate(input);
  const changes: Record<string, unknown> = { access_level: input.accessLevel, updated_at: deps.clock.now() };
  if (input.expiresAt !== undefined) changes.expires_at = input.expiresAt;
  const member = await deps.db
    .updateTable('members')
    .set(changes)
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  if (!member) throw new NotFoundError('Member');
  return member;
}

export async function removeMember(deps: Deps, source: MemberSource, userId: number): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const removed = await trx
      .deleteFrom('members')
      .where('source_type', '=', source.type)
      .where('source_id', '=', source.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw new NotFoundError('Member');
    if (source.type === 'Project') await recordEvent(trx, deps.clock, { projectId: source.id, authorId: userId, action: 'left' });
  });
}

export function listMembersQuery(deps: Deps, source: MemberSource) {
  return deps.db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.username', 'u.name', 'u.state', 'm.access_level', 'm.expires_at', 'm.created_at', 'm.created_by_id'])
    .where('m.source_type', '=', source.type)
    .where('m.source_id', '=', source.id)
    .orderBy('m.id');
}

export function memberEntity(baseUrl: string, row: { id: number; username: string; name: string; state: UserRow['state']; access_level: number; expires_at: string | null; created_at: number }) {
  return {
    ...userBasic(baseUrl, row),
    access_level: row.access_level,
    created_at: isoTime(row.created_at),
    expires_at: row.expires_at,
    membership_state: 'active',
  };
}
