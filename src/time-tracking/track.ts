// Changing the time tracking of an issue or a merge request (GitLab's TimeTrackable concern and
// SystemNotes::TimeTrackingService): the estimate is a column of the noteable, spent time is rows of
// `timelogs` summed. Each change updates the noteable's row first, in the transaction that adds its
// timelog and system note, so that two processes subtracting time at once are serialised on that
// row and the "exceeds the total" check sees the other's entry.
import type { Deps } from '../platform/deps.js';
import type { DbTransaction, Executor } from '../platform/db/database.js';
import { inTransaction } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { humanDuration } from './duration.js';

/** What time tracking needs of an issue or a merge request. */
export interface TimeTrackable {
  id: number;
  timeEstimate: number;
  updatedAt: number;
}

/** One noteable kind as time tracking sees it; each feature gives its own. */
export interface TimeTrackingKind<T extends TimeTrackable = TimeTrackable> {
  table: 'issues' | 'merge_requests';
  column: 'issue_id' | 'merge_request_id';
  systemNote(trx: DbTransaction, deps: Deps, item: T, authorId: number, body: string, now: number): Promise<void>;
  /** Publishes the kind's update event (its hook), in the transaction of the change. */
  publish(trx: DbTransaction, deps: Deps, item: T, actorId: number, change: TimeChange): Promise<void>;
}

/**
 * The fields a change made, as the update events carry them (GitLab's hooks list them in `changes`):
 * `time_estimate`, or `total_time_spent` and `time_change` (seconds added; previous 0), and `updated_at`.
 */
export interface TimeChange {
  changes: string[];
  previous: Record<string, number>;
  current: Record<string, number>;
}

export async function totalTimeSpent(db: Executor, column: TimeTrackingKind['column'], id: number): Promise<number> {
  const row = await db.selectFrom('timelogs').select((eb) => eb.fn.sum<number | string | null>('time_spent').as('total')).where(column, '=', id).executeTakeFirst();
  return Number(row?.total ?? 0);
}

async function touch(trx: DbTransaction, kind: TimeTrackingKind, id: number, now: number, timeEstimate?: number): Promise<void> {
  const values = timeEstimate === undefined ? { updated_at: now } : { updated_at: now, time_estimate: timeEstimate };
  if (kind.table === 'issues') await trx.updateTable('issues').set(values).where('id', '=', id).execute();
  else await trx.updateTable('merge_requests').set(values).where('id', '=', id).execute();
}

/** Sets the estimate (0 removes it); unchanged, nothing is written. Answers the estimate now. */
export async function setTimeEstimate<T extends TimeTrackable>(deps: Deps, kind: TimeTrackingKind<T>, actorId: number, item: T, seconds: number): Promise<number> {
  if (item.timeEstimate === seconds) return seconds;
  const now = deps.clock.now();
  await inTransaction(deps.db, async (trx) => {
    await touch(trx, kind, item.id, now, seconds);
    await kind.systemNote(trx, deps, item, actorId, seconds === 0 ? 'removed time estimate' : `changed time estimate to ${humanDuration(seconds)}`, now);
    await kind.publish(trx, deps, item, actorId, { changes: ['time_estimate'], previous: { time_estimate: item.timeEstimate, updated_at: item.updatedAt }, current: { time_estimate: seconds, updated_at: now } });
  });
  return seconds;
}

/**
 * Adds spent time (negative subtracts), or with `reset` takes all of it back (a timelog of the
 * negated total, as GitLab keeps it). Answers the total spent now.
 */
export async function spendTime<T extends TimeTrackable>(
  deps: Deps, kind: TimeTrackingKind<T>, actorId: number, item: T, spend: { seconds: number; summary?: string | null } | 'reset',
): Promise<number> {
  const now = deps.clock.now();
  const result = await inTransaction(deps.db, async (trx) => {
    await touch(trx, kind, item.id, now);
    const before = await totalTimeSpent(trx, kind.column, item.id);
    const seconds = spend === 'reset' ? -before : spend.seconds;
    if (spend !== 'reset' && seconds < 0 && -seconds > before) throw new ValidationError({ base: ['Time to subtract exceeds the total time spent'] });
    if (seconds === 0 && spend === 'reset' && before === 0) return { before, after: before };
    await trx.insertInto('timelogs').values({
      user_id: actorId,
      issue_id: kind.column === 'issue_id' ? item.id : null,
      merge_request_id: kind.column === 'merge_request_id' ? item.id : null,
      time_spent: seconds,
      summary: spend === 'reset' ? null : (spend.summary ?? null),
      spent_at: now,
      created_at: now,
    }).execute();
    const body = spend === 'reset' ? 'removed time spent' : `${seconds < 0 ? 'subtracted' : 'added'} ${humanDuration(Math.abs(seconds))} of time spent`;
    await kind.systemNote(trx, deps, item, actorId, body, now);
    await kind.publish(trx, deps, item, actorId, {
      changes: ['total_time_spent', 'time_change'],
      previous: { total_time_spent: before, time_change: 0, updated_at: item.updatedAt },
      current: { total_time_spent: before + seconds, time_change: seconds, updated_at: now },
    });
    return { before, after: before + seconds };
  });
  return result.after;
}
