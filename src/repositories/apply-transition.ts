// Makes one state-machine transition as a conditional UPDATE (so a second worker or a replayed job
// cannot apply it twice) and applies its read-only side effect in the same transaction.
import type { Transaction } from 'kysely';
import type { DB } from '../platform/db/schema.js';
import type { Clock } from '../platform/clock.js';
import { sourcesOf, transition, type MoveEvent, type MoveState } from './move-states.js';
import { loadMove, setReadOnly, updateMoves, type MoveKind } from './move-kinds.js';

export interface MoveRef {
  id: number;
  container_id: number;
}

/** The state the move reached, or null when it was not in a state the event applies to. */
export async function applyTransition(trx: Transaction<DB>, clock: Clock, kind: MoveKind, move: MoveRef, event: MoveEvent, errorMessage?: string): Promise<MoveState | null> {
  const current = await loadMove(trx, kind, move.id);
  if (!current) return null;
  const step = transition(current.state, event);
  if (!step) return null;
  const now = clock.now();
  const result = await updateMoves(trx, kind)
    .set({ state: step.to, updated_at: now, ...(errorMessage !== undefined ? { error_message: errorMessage.slice(0, 1000) } : {}) })
    .where('id', '=', move.id)
    .where('state', 'in', sourcesOf(event))
    .where('state', '=', current.state)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  if (step.readOnly) await setReadOnly(trx, kind, move.container_id, step.readOnly === 'set', now);
  return step.to;
}
