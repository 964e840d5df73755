// Hooks other features register at setup for merge requests to call: the seam where review (notes,
// discussions, resolvable threads) plugs its facts into the merge request's entity and merge checks
// without merge requests knowing its tables. Held per app instance (as accounts/hooks.ts).
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { Html } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';

export interface MergeRequestHooks {
  /**
   * Unresolved resolvable threads per merge request id (GitLab's `unresolved_notes` of
   * DiscussionNote/DiffNote notes): what `blocking_discussions_resolved`, the
   * `discussions_not_resolved` check and the 405 on merge read when the project has
   * `only_allow_merge_if_all_discussions_are_resolved`. Until review registers it, merge requests
   * have no resolvable notes and every thread counts as resolved.
   */
  unresolvedThreads?: (db: Executor, mergeRequestIds: number[]) => Promise<Map<number, number>>;
  /**
   * A new diff version replaced the latest one (a push, a retarget, a reopen), told inside the
   * transaction that recorded it: review traces the diff threads forward (GitLab's
   * update_diff_discussion_positions) in a job it enqueues there. `actorId`: who pushed, if known.
   */
  versionRecorded?: (trx: Executor, event: { mergeRequestId: number; actorId: number | null }) => Promise<unknown>;
  /**
   * Whether the user is subscribed to the merge request (the entity's `subscribed`; notifications
   * registers it). `participantIds`: the people its rows name (author, assignees, reviewers).
   */
  subscribed?: (user: { id: number; username: string }, mr: { id: number; description: string | null; participantIds: number[] }) => Promise<boolean>;
  /** The page's "Add a to do" / "Mark as done" button for its reader (the todos feature registers it); `self` is the merge request's page. */
  todoButton?: (context: PageContext, mr: { id: number; projectId: number }, self: string) => Promise<Html>;
  /**
   * Sections other features add to the merge widget, shown in registration order (CI adds the head
   * pipeline's "View exposed artifact" links); each answers empty markup when it has nothing to show.
   */
  widgetSections?: WidgetSection[];
}

export type WidgetSection = (context: PageContext, input: { access: ProjectAccess; mergeRequestId: number; headPipeline: { id: number; projectId: number } | null }) => Promise<Html>;

// Keyed by the instance's event bus rather than by `deps` itself: a copy of deps that reads through
// an event's transaction (webhooks build payloads so) shares it and finds the same hooks.
const hooks = new WeakMap<object, MergeRequestHooks>();

export function mergeRequestHooks(deps: Deps): MergeRequestHooks {
  let registered = hooks.get(deps.domainEvents);
  if (!registered) {
    registered = {};
    hooks.set(deps.domainEvents, registered);
  }
  return registered;
}
