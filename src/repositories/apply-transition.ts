// Makes one state-machine transition as a conditional UPDATE (so a second worker or a replayed job
// cannot apply it twice) and applies its read-only side effect in the same transaction.
import type { Transaction } from 'kysely';
import type { DB } from '../platform/db/schema.js';
import type { Clock } from '../platform/clock.js';
import { sourcesOf, transition, type MoveEvent, type MoveState } from './move-states.js';

export interface MoveRef {
  id: number;
  group_id: number;
}

/** The state the move reached, or null when it was not in a state the event applies to. */
export async function applyTransition(trx: Transaction<DB>, clock: Clock, move: MoveRef, event: MoveEvent, errorMessage?: string): Promise<MoveState | null> {
  const current = await trx.selectFrom('group_repository_storage_moves').select('state').where('id', '=', move.id).executeTakeFirst();
  if (!current) return null;
  const step = transition(current.state, event);
  if (!step) return null;
  const now = clock.now();
  const result = await trx
    .updateTable('group_repository_storage_moves')
    .set({ state: step.to, updated_at: now, ...(errorMessage !== undefined ? { error_message: errorMessage.slice(0, 1000) } : {}) })
    .where('id', '=', move.id)
    .where('state', 'in', sourcesOf(event))
    .where('state', '=', current.state)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  if (step.readOnly) {
    await trx
      .updateTable('namespaces')
      .set({ read_only: step.readOnly === 'set' ? 1 : 0, updated_at: now })
      .where('id', '=', move.group_id)
      .execute();
  }
  return step.to;
}
