// Hooks other features register at setup for environments to call (as merge-requests/hooks.ts): CI
// presents the job behind a deployment (`deployable`) without environments knowing its tables. Until
// CI registers it, every deployable is null.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';

export interface EnvironmentHooks {
  /** The Job entities (the specification's deployable shape) of the given CI job ids of a project. */
  deployables?: (project: ProjectRow, buildIds: number[]) => Promise<Map<number, unknown>>;
}

const hooks = new WeakMap<object, EnvironmentHooks>();

export function environmentHooks(deps: Deps): EnvironmentHooks {
  let registered = hooks.get(deps.domainEvents);
  if (!registered) {
    registered = {};
    hooks.set(deps.domainEvents, registered);
  }
  return registered;
}

/** The deployables of these deployments, by deployable id (empty when CI has none to show). */
export async function deployablesOf(deps: Deps, project: ProjectRow, deployments: Array<{ deployable_id: number | null }>): Promise<Map<number, unknown>> {
  const ids = [...new Set(deployments.map((row) => row.deployable_id).filter((id): id is number => id !== null).map(Number))];
  const present = environmentHooks(deps).deployables;
  return ids.length && present ? present(project, ids) : new Map();
}
