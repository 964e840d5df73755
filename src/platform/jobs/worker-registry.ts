// Which job workers run in this process, per app (keyed by its deps, so that two apps in one test
// process never see each other's): GET /sidekiq/process_metrics lists them even while idle.
import type { Deps } from '../deps.js';

export interface RunningWorker {
  id: string;
  startedAt: number;
}

const workers = new WeakMap<Deps, Map<string, RunningWorker>>();

export function registerWorker(deps: Deps, id: string, startedAt: number): void {
  let running = workers.get(deps);
  if (!running) workers.set(deps, (running = new Map()));
  running.set(id, { id, startedAt });
}

export function unregisterWorker(deps: Deps, id: string): void {
  workers.get(deps)?.delete(id);
}

export function localWorkers(deps: Deps): RunningWorker[] {
  return [...(workers.get(deps)?.values() ?? [])];
}
