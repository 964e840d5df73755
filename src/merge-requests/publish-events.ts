// The domain events of merge requests (platform/domain-events.ts), published in the transaction of
// the change beside its activity event: webhooks (Merge Request Hook) and e-mail listen to them.
import type { Deps } from '../platform/deps.js';
import type { EventTx } from '../platform/domain-events.js';
import type { MergeRequestRow } from './rows.js';

export type MergeRequestEventKind = 'merge_request.opened' | 'merge_request.closed' | 'merge_request.reopened' | 'merge_request.merged' | 'merge_request.approved' | 'merge_request.unapproved';

export function publishMergeRequestEvent(deps: Deps, trx: EventTx, kind: MergeRequestEventKind, mr: Pick<MergeRequestRow, 'id' | 'target_project_id'>, actorId: number | null): Promise<void> {
  return deps.domainEvents.publish(trx, { kind, projectId: Number(mr.target_project_id), actorId, mergeRequestId: Number(mr.id) });
}

export interface MergeRequestUpdate {
  changes: string[];
  previous: Record<string, unknown>;
  current: Record<string, unknown>;
  /** The source head before a push. */
  oldrev?: string | null;
}

export function publishMergeRequestUpdate(deps: Deps, trx: EventTx, mr: Pick<MergeRequestRow, 'id' | 'target_project_id'>, actorId: number | null, update: MergeRequestUpdate): Promise<void> {
  return deps.domainEvents.publish(trx, { kind: 'merge_request.updated', projectId: Number(mr.target_project_id), actorId, mergeRequestId: Number(mr.id), ...update });
}
