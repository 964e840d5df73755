// One issue or incident (GitLab's issue page): title, state, confidential marker, description (its
// task list ticked in place by those who may update the issue), the timeline of comments and system
// notes, the alert behind an incident, the sidebar (sidebar.ts), a comment form, and close or reopen
// for those who may update it.
import { awardBlock, toggleAwardPost, toggleNoteAwardPost } from '../award-emoji/award-bar.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { canSetIssueMetadata, canUpdateIssue } from '../../platform/auth/policies/issue-policy.js';
import { html, raw, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { ForbiddenError, ValidationError } from '../../platform/errors.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { findReadableIssue, type PolicyIssue } from '../finder.js';
import { usersById } from '../entities.js';
import { createIssueNote } from '../create-note.js';
import { updateIssue } from '../update-issue.js';
import { descriptionVersion } from '../task-list.js';
import { authorLink, confidentialBadge, kindOf, stateBadge, when } from './shared.js';
import { linkedAlertOf } from './linked-alert.js';
import { renderLinkedItems } from './linked-items.js';
import { renderTimeline } from './timeline.js';
import { renderSidebar, type SidebarInput } from './sidebar.js';
import { sidebarData } from './sidebar-data.js';
import { attachControl } from '../../uploads/api.js';
import { issueHooks } from '../hooks.js';

export const ISSUE_PATTERN = /^(?<path>.+?)\/-\/issues\/(?<iid>\d{1,9})$/;
const STATUS_NAMES = ['Triggered', 'Acknowledged', 'Resolved', 'Ignored'];
const TASK_BOX = /(<input type="checkbox" class="task-list-item-checkbox" name="task\[\]" value="(\d+)"[^>]*?) disabled>/g;

/** The description; with its checkboxes enabled in a form that writes ticks back when the reader may update it. */
export async function renderDescription(context: PageContext, access: ProjectAccess, issue: PolicyIssue, mayUpdate: boolean, error?: string): Promise<Html> {
  const rendered = issue.description ? await renderGitlabMarkdown(context.deps, issue.description, { project: access }) : '';
  const shown: number[] = [];
  if (!rendered) return html`<div class="markdown description" id="description"><p class="muted">No description.</p></div>`;
  if (!mayUpdate || !rendered.includes('task-list-item-checkbox')) return html`<div class="markdown description" id="description">${raw(rendered)}</div>`;
  const enabled = rendered.replace(TASK_BOX, (_all, start: string, line: string) => (shown.push(Number(line)), `${start}>`));
  const self = `/${access.project.full_path}/-/issues/${issue.iid}`;
  return html`<form method="post" action="${self}/tasks" hx-post="${self}/tasks" hx-trigger="change" hx-target="this" hx-swap="outerHTML" class="description-form" id="description">${csrfField(context)}<input type="hidden" name="description_version" value="${descriptionVersion(issue.description)}"><input type="hidden" name="shown" value="${shown.join(',')}">
${error ? html`<p class="error" role="alert">${error}</p>` : ''}<div class="markdown description">${raw(enabled)}</div><p class="actions"><button type="submit" class="small secondary">Save checklist</button></p></form>`;
}

export async function sidebarInput(context: PageContext, access: ProjectAccess, issue: PolicyIssue): Promise<Omit<SidebarInput, 'error'>> {
  const editable = Boolean(context.user) && canSetIssueMetadata(access, true);
  const todoButton = issueHooks(context.deps).todoButton;
  const self = `/${access.project.full_path}/-/issues/${issue.iid}`;
  const [data, todo] = await Promise.all([
    sidebarData(context.deps, access, issue, editable),
    context.user && todoButton ? todoButton(context, { id: Number(issue.id), projectId: Number(issue.project_id) }, self) : Promise.resolve(html``),
  ]);
  return { context, access, issue, data, editable, todo };
}

export async function renderIssue(context: PageContext, access: ProjectAccess, error?: string, sidebarError?: SidebarInput['error'], status = 200) {
  const { deps } = context;
  const issue = await findReadableIssue(deps, access, Number(context.match.iid));
  const mayUpdate = context.user ? canUpdateIssue(access, issue) : false;
  const base = `/${access.project.full_path}`;
  const self = `${base}/-/issues/${issue.iid}`;
  const [users, description, timeline, alert, sidebar, awards, linked] = await Promise.all([
    usersById(deps.db, [issue.author_id]),
    renderDescription(context, access, issue, mayUpdate),
    renderTimeline(context, access, Number(issue.id), self),
    issue.issue_type === 'incident' ? linkedAlertOf(deps, issue.id) : Promise.resolve(undefined),
    sidebarInput(context, access, issue),
    awardBlock(context, access, { type: 'Issue', id: Number(issue.id) }, `${self}/award`),
    renderLinkedItems(context, access, issue),
  ]);
  const kind = kindOf(issue.issue_type);
  const mayComment = context.user ? canOnProject(access, 'create_note') : false;
  const body = html`
<p class="issue-meta">${stateBadge(issue)} ${confidentialBadge(issue)} <span class="muted">${kind.singular} created ${when(issue.created_at)} by ${authorLink(users, issue.author_id)}</span>${mayUpdate ? html` <a class="edit-link button small secondary" href="${self}/edit">Edit</a>` : ''}</p>
<div class="issue-layout"><div class="issue-main">
${alert ? html`<p class="linked-alert">Created from alert <a href="${base}/-/alert_management/${alert.iid}/details">^alert#${alert.iid}: ${alert.title}</a> <span class="badge">${STATUS_NAMES[alert.status] ?? ''}</span></p>` : ''}
${description}
${awards}
${linked}
${mayUpdate ? html`<form method="post" action="${self}" class="actions">${csrfField(context)}<input type="hidden" name="state_event" value="${issue.state === 'opened' ? 'close' : 'reopen'}"><button type="submit" class="secondary">${issue.state === 'opened' ? `Close ${kind.singular.toLowerCase()}` : `Reopen ${kind.singular.toLowerCase()}`}</button></form>` : ''}
<h2>Activity</h2>
${timeline}
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
${
  mayComment
    ? html`<form method="post" action="${self}" class="stacked" id="new-note">${csrfField(context)}<label for="note-body">Add a comment</label><textarea id="note-body" name="note" required></textarea><p class="muted">Markdown is supported.</p>${attachControl(access.project.full_path)}<button type="submit">Comment</button></form>`
    : context.user ? '' : html`<p><a href="/users/sign_in?return_to=${encodeURIComponent(self)}">Sign in</a> to comment.</p>`
}
</div>
${renderSidebar({ ...sidebar, error: sidebarError }, deps)}
</div>`;
  return page({
    title: `${issue.title} (#${issue.iid}) · ${kind.plural} · ${access.project.name}`,
    heading: html`<h1>${issue.title} <span class="muted">#${issue.iid}</span></h1>`,
    body,
    status,
    sidebar: projectSidebar(access, issue.issue_type === 'incident' ? 'incidents' : 'issues'),
  });
}

/** A comment, or closing and reopening: each asks its own ability on the issue. */
export async function handleIssuePost(context: PageContext, access: ProjectAccess) {
  const { deps, form, user } = context;
  const issue = await findReadableIssue(deps, access, Number(context.match.iid));
  const self = `/${access.project.full_path}/-/issues/${issue.iid}`;
  const kind = kindOf(issue.issue_type).singular;
  if (form.state_event === 'close' || form.state_event === 'reopen') {
    if (!canUpdateIssue(access, issue)) return renderForbidden();
    await updateIssue(deps, user.id, issue, { stateEvent: form.state_event });
    return redirect(self, form.state_event === 'close' ? `${kind} closed.` : `${kind} reopened.`);
  }
  if (!canOnProject(access, 'create_note')) return renderForbidden();
  const note = typeof form.note === 'string' ? form.note : '';
  try {
    const created = await createIssueNote(deps, user.id, issue, note);
    return redirect(`${self}#note_${created.id}`, 'Comment added.');
  } catch (error) {
    if (error instanceof ValidationError) return renderIssue(context, access, 'Comment can’t be blank.', undefined, 400);
    throw error;
  }
}

export const ISSUE_AWARD_PATTERN = /^(?<path>.+?)\/-\/issues\/(?<iid>\d{1,9})\/award$/;
export const ISSUE_NOTE_AWARD_PATTERN = /^(?<path>.+?)\/-\/issues\/(?<iid>\d{1,9})\/notes\/(?<note>\d{1,12})\/award$/;

/** Toggle the viewer's award emoji on the issue (award-bar.ts). */
export async function handleIssueAward(context: PageContext, access: ProjectAccess) {
  const issue = await findReadableIssue(context.deps, access, Number(context.match.iid));
  const self = `/${access.project.full_path}/-/issues/${issue.iid}`;
  return toggleAwardPost(context, access, { type: 'Issue', id: Number(issue.id) }, self, `${self}/award`);
}

/** Toggle the viewer's award emoji on one comment of the issue (never a system note): the block comes back in place. */
export async function handleIssueNoteAward(context: PageContext, access: ProjectAccess) {
  const issue = await findReadableIssue(context.deps, access, Number(context.match.iid));
  return toggleNoteAwardPost(context, access, { type: 'Issue', id: Number(issue.id) }, `/${access.project.full_path}/-/issues/${issue.iid}`);
}

function renderForbidden(): never {
  throw new ForbiddenError();
}
