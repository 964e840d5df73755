// The deployment state machine as data (GitLab's app/models/deployment.rb, 14.x): the API names a
// target status, GitLab fires the matching event, and each event allows these source states.
import type { DeploymentStatus } from '../platform/db/tables/environments.js';

export const API_STATUSES = ['running', 'success', 'failed', 'canceled'] as const;
export type ApiDeploymentStatus = (typeof API_STATUSES)[number];
export const ALL_STATUSES: readonly DeploymentStatus[] = ['created', 'running', 'success', 'failed', 'canceled'];

const EVENTS: Record<ApiDeploymentStatus, { event: string; from: (status: DeploymentStatus) => boolean }> = {
  running: { event: 'run', from: (status) => status === 'created' },
  success: { event: 'succeed', from: (status) => status !== 'success' },
  failed: { event: 'drop', from: (status) => status !== 'failed' },
  canceled: { event: 'cancel', from: (status) => status !== 'canceled' },
};

export type Transition = { ok: true; finished: boolean } | { ok: false; message: string };

/** Whether a deployment in `current` may move to `target`; state_machines' message when it may not. */
export function transition(current: DeploymentStatus, target: ApiDeploymentStatus): Transition {
  const rule = EVENTS[target];
  if (!rule.from(current)) return { ok: false, message: `cannot transition via "${rule.event}"` };
  return { ok: true, finished: target !== 'running' };
}
