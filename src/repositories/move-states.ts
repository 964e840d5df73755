// The storage move state machine as data (GitLab's REST API documentation, GitLab's repository_storage_movable.rb),
// with pure transition functions. The side effects named here are applied by the actions, inside
// the transaction that makes the transition.
import type { MoveState } from '../platform/db/tables/repositories.js';

export type { MoveState };

export const MOVE_STATES: readonly MoveState[] = ['initial', 'scheduled', 'started', 'finished', 'failed', 'replicated', 'cleanup_failed'];

export type MoveEvent = 'schedule' | 'start' | 'finish_replication' | 'finish_cleanup' | 'fail';

export type ReadOnlyEffect = 'set' | 'clear' | null;

interface Transition {
  from: MoveState;
  event: MoveEvent;
  to: MoveState;
  /** What happens to the group's read-only flag in the same transaction. */
  readOnly: ReadOnlyEffect;
}

export const TRANSITIONS: readonly Transition[] = [
  { from: 'initial', event: 'schedule', to: 'scheduled', readOnly: 'set' },
  { from: 'scheduled', event: 'start', to: 'started', readOnly: null },
  { from: 'started', event: 'finish_replication', to: 'replicated', readOnly: 'clear' },
  { from: 'replicated', event: 'finish_cleanup', to: 'finished', readOnly: null },
  // GitLab clears the flag only on started → failed; a move failing before it started would leave the
  // group read-only for ever, so every failure before replication clears it here.
  { from: 'initial', event: 'fail', to: 'failed', readOnly: 'clear' },
  { from: 'scheduled', event: 'fail', to: 'failed', readOnly: 'clear' },
  { from: 'started', event: 'fail', to: 'failed', readOnly: 'clear' },
  { from: 'replicated', event: 'fail', to: 'cleanup_failed', readOnly: null },
];

export function transition(from: MoveState, event: MoveEvent): Transition | null {
  return TRANSITIONS.find((candidate) => candidate.from === from && candidate.event === event) ?? null;
}

/** States from which an event is allowed (for the conditional UPDATE that makes it). */
export function sourcesOf(event: MoveEvent): MoveState[] {
  return TRANSITIONS.filter((candidate) => candidate.event === event).map((candidate) => candidate.from);
}

/** A move still holding its group: at most one per group (a partial unique index in the database). */
export const UNFINISHED_STATES: readonly MoveState[] = ['initial', 'scheduled', 'started', 'replicated'];

export function isFinal(state: MoveState): boolean {
  return !UNFINISHED_STATES.includes(state);
}

/** The API prints GitLab's `human_state_name`: `cleanup_failed` → `cleanup failed`. */
export function humanState(state: MoveState): string {
  return state.replace(/_/g, ' ');
}
