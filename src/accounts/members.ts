// Group and project membership: the source a membership belongs to, the trusted insert, the listing
// and the wire entity. The checked changes are create-member.ts, update-member.ts, destroy-member.ts.
import type { Selectable } from 'kysely';
import { inTransaction, isUniqueViolation, type Executor } from '../platform/db/database.js';
import type { MembersTable } from '../platform/db/tables/accounts.js';
import type { Deps } from '../platform/deps.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import { VALID_MEMBER_LEVELS } from '../platform/auth/access-levels.js';
import { isoTime, type Clock } from '../platform/clock.js';
import { userBasic } from './user-entities.js';
import type { UserRow } from './lookup.js';

export type MemberSource = { type: 'Namespace' | 'Project'; id: number };

export interface AddMemberInput {
  userId: number;
  accessLevel: number;
  expiresAt?: string | null;
}

export function validateMemberLevel(accessLevel: number): void {
  if (!VALID_MEMBER_LEVELS.includes(accessLevel)) throw new ValidationError({ access_level: ['is not included in the list'] });
}

/**
 * Insert a membership (and a project's "joined" event) in the caller's transaction. No authorization:
 * the checked path is create-member.ts; this also seeds data (benchmarks, setup).
 */
export async function insertMember(trx: Executor, clock: Clock, source: MemberSource, input: AddMemberInput, createdById: number | null): Promise<Selectable<MembersTable>> {
  const now = clock.now();
  const row = await trx
    .insertInto('members')
    .values({ source_type: source.type, source_id: source.id, user_id: input.userId, access_level: input.accessLevel, expires_at: input.expiresAt ?? null, created_by_id: createdById, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (source.type === 'Project') await recordEvent(trx, clock, { projectId: source.id, authorId: input.userId, action: 'joined' });
  return row;
}

/** Add a member without asking any policy: for seeding and trusted callers (routes use createMember). */
export async function addMember(deps: Deps, actorId: number, source: MemberSource, input: AddMemberInput) {
  validateMemberLevel(input.accessLevel);
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', input.userId).executeTakeFirst();
  if (!user) throw new NotFoundError('User');
  try {
    const member = await inTransaction(deps.db, (trx) => insertMember(trx, deps.clock, source, input, actorId));
    return { member, user };
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('Member already exists');
    throw error;
  }
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
