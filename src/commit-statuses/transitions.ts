// The state machine of a commit status (GitLab's CommitStatus state_machine): which event moves a
// status from which states, and the events a posted `state` fires, in GitLab's order and words.
import { StatusError } from '../platform/errors.js';
import type { CiStatus } from '../platform/db/tables/ci.js';

export type StatusEvent = 'enqueue' | 'run' | 'success' | 'drop' | 'cancel' | 'skip';

const ACTIVE_OR_NEW: CiStatus[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running'];

const TRANSITIONS: Record<StatusEvent, { from: readonly CiStatus[]; to: CiStatus }> = {
  enqueue: { from: ['created', 'skipped', 'manual', 'scheduled'], to: 'pending' },
  run: { from: ['pending'], to: 'running' },
  success: { from: ACTIVE_OR_NEW, to: 'success' },
  drop: { from: ACTIVE_OR_NEW, to: 'failed' },
  cancel: { from: [...ACTIVE_OR_NEW, 'manual', 'scheduled'], to: 'canceled' },
  skip: { from: ['created', 'waiting_for_resource', 'preparing', 'pending'], to: 'skipped' },
};

/** The states `POST /statuses/:sha` takes. */
export const POSTED_STATES = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const;
export type PostedState = (typeof POSTED_STATES)[number];

/**
 * The events a posted state fires (Ci::CreateCommitStatusService#update_status): `running` first
 * enqueues if it can (silently when it cannot), then must run; every other state must take its one
 * event. Hence re-posting `pending` or `running` fails while `running` after `pending` succeeds.
 */
const EVENTS: Record<PostedState, Array<{ event: StatusEvent; must: boolean }>> = {
  pending: [{ event: 'enqueue', must: true }],
  running: [{ event: 'enqueue', must: false }, { event: 'run', must: true }],
  success: [{ event: 'success', must: true }],
  failed: [{ event: 'drop', must: true }],
  canceled: [{ event: 'cancel', must: true }],
  skipped: [{ event: 'skip', must: true }],
};

/** The status after posting `state` on a status in `current`, or GitLab's 400 when it may not move. */
export function transition(current: CiStatus, state: PostedState): CiStatus {
  let status = current;
  for (const { event, must } of EVENTS[state]) {
    const rule = TRANSITIONS[event];
    if (rule.from.includes(status)) status = rule.to;
    else if (must) throw new StatusError(400, `Cannot transition status via :${event} from :${status} (Reason(s): Status cannot transition via "${event}")`);
  }
  return status;
}

export const COMPLETED: readonly CiStatus[] = ['success', 'failed', 'canceled', 'skipped'];
export const ACTIVE: readonly CiStatus[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled'];

/**
 * A pipeline's status from the statuses of its latest builds (Gitlab::Ci::Status::Composite), in
 * GitLab's order; a build allowed to fail counts as a success.
 */
export function compositeStatus(builds: Array<{ status: CiStatus; allow_failure: number }>): CiStatus {
  if (builds.length === 0) return 'created';
  // Allowed failures count as passed (GitLab's success_with_warnings), a manual job allowed to fail is
  // ignored (counted as skipped): neither holds a pipeline up.
  const statuses = new Set(
    builds.map((build) => {
      if (Number(build.allow_failure) !== 1) return build.status;
      if (build.status === 'failed' || build.status === 'canceled') return 'success';
      return build.status === 'manual' ? 'skipped' : build.status;
    }),
  );
  const only = (...allowed: CiStatus[]) => [...statuses].every((status) => allowed.includes(status));
  const any = (...wanted: CiStatus[]) => wanted.some((status) => statuses.has(status));
  if (only('skipped')) return 'skipped';
  if (only('success', 'skipped')) return 'success';
  if (only('created')) return 'created';
  if (only('preparing')) return 'preparing';
  if (only('canceled', 'success', 'skipped')) return 'canceled';
  if (only('pending', 'created', 'skipped')) return 'pending';
  if (any('running', 'pending')) return 'running';
  if (any('waiting_for_resource')) return 'waiting_for_resource';
  if (any('manual')) return 'manual';
  if (any('scheduled')) return 'scheduled';
  if (any('preparing')) return 'preparing';
  if (any('created')) return 'running';
  return 'failed';
}
