// What other features plug into issues, registered in their setup. They use issues (through
// api.ts), so issues must not import them (docs/architecture.md, "Boundaries"): it asks these hooks
// instead. Held per app instance (per Deps), never per module.
import type { Deps } from '../platform/deps.js';
import type { IssueRow } from './entities.js';

export interface IssueHooks {
  /** Which of these issues (with their assignees' ids) the user is subscribed to (the notifications feature registers it). */
  subscribedIssueIds?: (user: { id: number; username: string }, issues: Array<IssueRow & { assigneeIds: number[] }>) => Promise<Set<number>>;
}

const hooks = new WeakMap<Deps, IssueHooks>();

export function issueHooks(deps: Deps): IssueHooks {
  let registered = hooks.get(deps);
  if (!registered) hooks.set(deps, (registered = {}));
  return registered;
}
