// Failure injection for the move worker: tests register a hook per Kiln instance that runs at each
// step boundary and may throw (a failure) or never return (a crash: the job's lease then expires).
import type { Deps } from '../platform/deps.js';

export type MoveStep = 'started' | 'copied' | 'verified' | 'replicated' | 'source_deleted';

export type MoveHook = (step: MoveStep, moveId: number) => void | Promise<void>;

const hooks = new WeakMap<Deps, MoveHook>();

export function setMoveHook(deps: Deps, hook: MoveHook | null): void {
  if (hook) hooks.set(deps, hook);
  else hooks.delete(deps);
}

export async function atStep(deps: Deps, step: MoveStep, moveId: number): Promise<void> {
  await hooks.get(deps)?.(step, moveId);
}
