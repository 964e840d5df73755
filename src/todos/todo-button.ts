// The to-do button of the issue and merge request pages (GitLab's sidebar "Add a to do" / "Mark as
// done"): the signed-in reader adds a `marked` to-do for themselves through the service the API's
// POST …/todo uses (markTodo), or, while they have pending to-dos on the target (added by hand or
// by an assignment or mention), marks those done. The form works without JavaScript (the page comes
// back); htmx swaps the button in place and the top bar's count out of band.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { TodoTargetType } from '../platform/db/tables/todos.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, namespacedPage, type PageContext } from '../platform/web/page-route.js';
import { fragment, redirect, type PageOutcome } from '../platform/web/page.js';
import { findReadableIssue } from '../issues/api.js';
import { findMergeRequestTarget, pendingTodosCount } from './finder.js';
import { markTodo } from './mark-todo.js';
import { markTodosDone } from './mark-todos-done.js';
import { countBadge } from './pages.js';

export interface TodoTarget {
  type: TodoTargetType;
  id: number;
  projectId: number;
}

const ISSUE_TODO_PATTERN = /^(?<path>.+?)\/-\/issues\/(?<iid>\d{1,9})\/todo$/;
const MERGE_REQUEST_TODO_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/todo$/;

/** The ids of the user's pending to-dos on one target. */
async function pendingOn(deps: Deps, user: AuthUser, target: TodoTarget): Promise<number[]> {
  const rows = await deps.db.selectFrom('todos').select('id').where('user_id', '=', user.id).where('target_type', '=', target.type).where('target_id', '=', target.id).where('state', '=', 'pending').execute();
  return rows.map((row) => Number(row.id));
}

/** The form; after an htmx post it also says, to screen readers, what just happened. */
function buttonHtml(context: PageContext, pending: boolean, action: string, said?: string): Html {
  const label = pending ? 'Mark as done' : 'Add a to do';
  return html`<form method="post" action="${action}" hx-post="${action}" hx-target="this" hx-swap="outerHTML" class="todo-toggle" id="todo-toggle">${csrfField(context)}<input type="hidden" name="pending" value="${pending ? '1' : '0'}"><button type="submit" class="small secondary">${label}</button>${said ? html`<span class="visually-hidden" role="status">${said}</span>` : ''}</form>`;
}

/**
 * The button for the page's reader: nothing for anonymous visitors. `self` is the target's page
 * (`/<project>/-/issues/<iid>`); the form posts to `<self>/todo`.
 */
export async function todoButton(context: PageContext, target: TodoTarget, self: string): Promise<Html> {
  if (!context.user) return html``;
  return buttonHtml(context, (await pendingOn(context.deps, context.user, target)).length > 0, `${self}/todo`);
}

/**
 * Toggles the reader's to-do on the target. The form says which state the reader saw (`pending`):
 * a repeated or stale post never flips it back, it lands where the button said it would.
 */
async function togglePost(context: PageContext, target: TodoTarget, self: string): Promise<PageOutcome> {
  const { deps, user } = context;
  const sawPending = context.form.pending === '1';
  let flash: string;
  if (sawPending) {
    await markTodosDone(deps, user, await pendingOn(deps, user, target));
    flash = 'To-do marked as done.';
  } else {
    await markTodo(deps, user, target);
    flash = 'To-do added.';
  }
  if (context.request.headers['hx-request'] !== 'true') return redirect(self, flash);
  const [pending, count] = await Promise.all([pendingOn(deps, user, target), pendingTodosCount(deps, user)]);
  return fragment(html`${buttonHtml(context, pending.length > 0, `${self}/todo`, flash)}${countBadge(count)}`);
}

/** The buttons' posts: the same abilities as the API's POST …/issues/:iid/todo and …/merge_requests/:iid/todo. */
export function todoButtonPages(app: FastifyInstance, deps: Deps): void {
  namespacedPage(app, deps, {
    method: 'POST', pattern: ISSUE_TODO_PATTERN, ability: { project: 'read_issue' },
    handler: async (context) => {
      const access = await context.project();
      const issue = await findReadableIssue(deps, access, Number(context.match.iid));
      return togglePost(context, { type: 'Issue', id: Number(issue.id), projectId: Number(issue.project_id) }, `/${access.project.full_path}/-/issues/${issue.iid}`);
    },
  });
  namespacedPage(app, deps, {
    method: 'POST', pattern: MERGE_REQUEST_TODO_PATTERN, ability: { project: 'read_merge_request' },
    handler: async (context) => {
      const access = await context.project();
      const iid = Number(context.match.iid);
      const mr = await findMergeRequestTarget(deps, Number(access.project.id), iid);
      return togglePost(context, { type: 'MergeRequest', id: Number(mr.id), projectId: Number(mr.target_project_id) }, `/${access.project.full_path}/-/merge_requests/${iid}`);
    },
  });
}
