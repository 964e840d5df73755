// The one way to record an activity event. Call it with the transaction of the change it records,
// so an event exists exactly when its change does.
import type { Executor } from '../db/database.js';
import type { Clock } from '../clock.js';
import type { EventAction, EventTargetType, PushData } from './vocabulary.js';

export interface RecordEventInput {
  projectId: number | null;
  authorId: number;
  action: EventAction;
  target?: { type: EventTargetType; id: number; iid?: number | null; title?: string | null };
  pushData?: PushData;
  createdAt?: number;
}

export async function recordEvent(executor: Executor, clock: Clock, input: RecordEventInput): Promise<number> {
  const row = await executor
    .insertInto('events')
    .values({
      project_id: input.projectId,
      author_id: input.authorId,
      action: input.action,
      target_type: input.target?.type ?? null,
      target_id: input.target?.id ?? null,
      target_iid: input.target?.iid ?? null,
      target_title: input.target?.title ?? null,
      push_data: input.pushData ? JSON.stringify(input.pushData) : null,
      created_at: input.createdAt ?? clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
