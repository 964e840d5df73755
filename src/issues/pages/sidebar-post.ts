// The sidebar's forms (sidebar.ts): one field at a time, checked as the API checks it (metadataOf:
// set_issue_metadata, readable assignees, the project's milestones) and applied by updateIssue, so the
// change gets the same system note, webhook and e-mail as through the API. An htmx request gets the
// sidebar back with the timeline swapped out of band; a plain form post is sent back to the page.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canSetIssueMetadata } from '../../platform/auth/policies/issue-policy.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { fragment, redirect } from '../../platform/web/page.js';
import { ForbiddenError, ParamError } from '../../platform/errors.js';
import { availableLabelsQuery } from '../../labels/api.js';
import { findReadableIssue } from '../finder.js';
import { updateIssue, type UpdateIssueInput } from '../update-issue.js';
import { confidentialOf, metadataOf } from '../issue-params.js';
import { renderSidebar } from './sidebar.js';
import { renderTimeline } from './timeline.js';
import { renderIssue, sidebarInput } from './show-page.js';

export const ISSUE_SIDEBAR_PATTERN = /^(?<path>.+?)\/-\/issues\/(?<iid>\d{1,9})\/sidebar$/;

const FIELDS = ['assignees', 'labels', 'milestone', 'due_date', 'confidential', 'discussion_locked'] as const;
type Field = (typeof FIELDS)[number];
const SAVED: Record<Field, string> = {
  assignees: 'Assignees saved.',
  labels: 'Labels saved.',
  milestone: 'Milestone saved.',
  due_date: 'Due date saved.',
  confidential: 'Confidentiality saved.',
  discussion_locked: 'Lock saved.',
};

function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function ids(value: string | string[] | undefined): number[] {
  return list(value).map((item) => Number(item)).filter((id) => Number.isSafeInteger(id) && id >= 0);
}

function one(value: string | string[] | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** The change the form asks, as the API's parameters would say it. */
async function changeOf(context: PageContext, access: ProjectAccess, field: Field, issue: Awaited<ReturnType<typeof findReadableIssue>>): Promise<UpdateIssueInput> {
  const { form, deps } = context;
  const metadata = (input: Record<string, unknown>) => metadataOf(deps, access, input, input as never, issue);
  switch (field) {
    case 'assignees': {
      const wanted = ids(form.assignee_ids).filter((id) => id > 0);
      return { metadata: await metadata({ assignee_ids: wanted.length ? wanted : [0] }), project: access.project };
    }
    case 'labels': {
      const chosen = ids(form.label_ids);
      // Only labels this project sees: an id of another project's label names nothing here.
      const titles = chosen.length ? (await (await availableLabelsQuery(deps, { project: access.project })).where('id', 'in', chosen).execute()).map((label) => label.title) : [];
      return { metadata: await metadata({ labels: titles }), project: access.project };
    }
    case 'milestone': {
      const value = one(form.milestone_id);
      return { metadata: await metadata(value && /^\d+$/.test(value) && value !== '0' ? { milestone_id: Number(value) } : { milestone_id: null }), project: access.project };
    }
    case 'due_date': {
      const value = one(form.due_date).trim();
      return { metadata: await metadata(form.clear === '1' || value === '' ? { due_date: null } : { due_date: value }), project: access.project };
    }
    case 'discussion_locked':
      return { metadata: await metadata({ discussion_locked: one(form.value) === '1' }), project: access.project };
    case 'confidential':
      return { confidential: confidentialOf(access, one(form.value) === '1', true) };
  }
}

export async function handleSidebarPost(context: PageContext, access: ProjectAccess) {
  const { deps, form, user } = context;
  const issue = await findReadableIssue(deps, access, Number(context.match.iid));
  if (!canSetIssueMetadata(access, true)) throw new ForbiddenError();
  const self = `/${access.project.full_path}/-/issues/${issue.iid}`;
  const field = FIELDS.find((name) => name === form.field);
  const htmx = context.request.headers['hx-request'] === 'true';
  if (!field) return redirect(self);
  let error: { field: string; message: string } | undefined;
  try {
    await updateIssue(deps, user.id, issue, await changeOf(context, access, field, issue));
  } catch (caught) {
    if (!(caught instanceof ParamError)) throw caught;
    error = { field, message: field === 'due_date' ? 'Enter the due date as a date (YYYY-MM-DD).' : 'That choice is no longer available; reload the page.' };
  }
  if (!htmx) return error ? renderIssue(context, access, undefined, error, 400) : redirect(self, SAVED[field]);
  const fresh = await findReadableIssue(deps, access, issue.iid);
  const [input, timeline] = await Promise.all([sidebarInput(context, access, fresh), renderTimeline(context, access, Number(fresh.id), self, true)]);
  // The timeline gains the change's system note; htmx swaps it in by its id (hx-swap-oob).
  return fragment(html`${renderSidebar({ ...input, error }, deps)}${error ? '' : timeline}`);
}
