// Insert a membership (and a project's "joined" event) in the caller's transaction. No authorization:
// the checked path is create-member.ts; this also seeds data (benchmarks, setup).
import type { Selectable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { MembersTable } from '../platform/db/tables/accounts.js';
import { recordEvent } from '../platform/events/record-event.js';
import type { Clock } from '../platform/clock.js';
import type { AddMemberInput, MemberSource } from './member-source.js';

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
