// What other features plug into issues, registered in their setup. They use issues (through
// api.ts), so issues must not import them (docs/architecture.md, "Boundaries"): it asks these hooks
// instead. Held per app instance (per Deps), never per module.
import type { Deps } from '../platform/deps.js';
import type { IssueRow } from './entities.js';
import type { Html } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';

export interface IssueHooks {
  /** Which of these issues (with their assignees' ids) the user is subscribed to (the notifications feature registers it). */
  subscribedIssueIds?: (user: { id: number; username: string }, issues: Array<IssueRow & { assigneeIds: number[] }>) => Promise<Set<number>>;
  /** The issue page's "Add a to do" / "Mark as done" button for its reader (the todos feature registers it); `self` is the issue's page. */
  todoButton?: (context: PageContext, issue: { id: number; projectId: number }, self: string) => Promise<Html>;
}

const hooks = new WeakMap<Deps, IssueHooks>();

export function issueHooks(deps: Deps): IssueHooks {
  let registered = hooks.get(deps);
  if (!registered) hooks.set(deps, (registered = {}));
  return registered;
}
