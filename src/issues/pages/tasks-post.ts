// Ticking the task list of an issue's description in place (GitLab's task list update). The form
// says which items it showed and which are ticked, and the description version it showed: when the
// description changed since (another edit, another tick), nothing is written and the reader gets the
// description as it is now with a message, so no one's text is lost.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canUpdateIssue } from '../../platform/auth/policies/issue-policy.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { fragment, redirect } from '../../platform/web/page.js';
import { ConflictError, ForbiddenError } from '../../platform/errors.js';
import { findReadableIssue } from '../finder.js';
import { updateIssue } from '../update-issue.js';
import { descriptionVersion, setTasks } from '../task-list.js';
import { renderDescription, renderIssue } from './show-page.js';

export const ISSUE_TASKS_PATTERN = /^(?<path>.+?)\/-\/issues\/(?<iid>\d{1,9})\/tasks$/;
export const STALE_TASKS = 'The description changed since this page was loaded, so nothing was saved. It is shown as it is now: tick the items again.';

function lines(value: string | string[] | undefined, limit: number): number[] {
  const items = value === undefined ? [] : Array.isArray(value) ? value : value.split(',');
  return items.slice(0, limit).map((item) => Number(item)).filter((line) => Number.isSafeInteger(line) && line >= 0);
}

export async function handleTasksPost(context: PageContext, access: ProjectAccess) {
  const { deps, form, user } = context;
  const issue = await findReadableIssue(deps, access, Number(context.match.iid));
  if (!canUpdateIssue(access, issue)) throw new ForbiddenError();
  const self = `/${access.project.full_path}/-/issues/${issue.iid}`;
  const htmx = context.request.headers['hx-request'] === 'true';
  const stale = async () => {
    const current = await findReadableIssue(deps, access, issue.iid);
    return htmx ? fragment(await renderDescription(context, access, current, true, STALE_TASKS)) : renderIssue(context, access, STALE_TASKS, undefined, 409);
  };
  if (form.description_version !== descriptionVersion(issue.description) || issue.description === null) return stale();
  const next = setTasks(issue.description, lines(form.shown, 10_000), new Set(lines(form.task, 10_000)));
  let updated = issue;
  if (next !== issue.description) {
    try {
      updated = { ...issue, ...(await updateIssue(deps, user.id, issue, { description: next, expectedDescription: issue.description })) };
    } catch (error) {
      if (error instanceof ConflictError) return stale();
      throw error;
    }
  }
  return htmx ? fragment(await renderDescription(context, access, updated, true)) : redirect(self, 'Checklist saved.');
}
