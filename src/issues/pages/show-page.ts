// One issue or incident (GitLab's issue page): title, state, confidential marker, description and
// comments rendered as Markdown for this viewer, the alert behind an incident, a comment form, and
// close or reopen for those who may update it.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { canUpdateIssue } from '../../platform/auth/policies/issue-policy.js';
import { html, raw } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { ForbiddenError, ValidationError } from '../../platform/errors.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { findReadableIssue } from '../finder.js';
import { notesQuery } from '../discussions-finder.js';
import { usersById } from '../entities.js';
import { createIssueNote } from '../create-note.js';
import { updateIssue } from '../update-issue.js';
import { authorLink, confidentialBadge, kindOf, stateBadge, when } from './shared.js';
import { linkedAlertOf } from './linked-alert.js';

export const ISSUE_PATTERN = /^(?<path>.+?)\/-\/issues\/(?<iid>\d{1,9})$/;
const STATUS_NAMES = ['Triggered', 'Acknowledged', 'Resolved', 'Ignored'];

export async function renderIssue(context: PageContext, access: ProjectAccess, error?: string) {
  const { deps } = context;
  const issue = await findReadableIssue(deps, access, Number(context.match.iid));
  const notes = await notesQuery(deps, { type: 'Issue', id: Number(issue.id) }, 'created_at', 'asc').limit(1000).execute();
  const users = await usersById(deps.db, [issue.author_id, ...notes.map((note) => note.author_id)]);
  const markdown = (text: string) => renderGitlabMarkdown(deps, text, { project: access });
  const [description, noteBodies, alert] = await Promise.all([
    issue.description ? markdown(issue.description) : Promise.resolve(''),
    Promise.all(notes.map((note) => markdown(note.body))),
    issue.issue_type === 'incident' ? linkedAlertOf(deps, issue.id) : Promise.resolve(undefined),
  ]);
  const base = `/${access.project.full_path}`;
  const self = `${base}/-/issues/${issue.iid}`;
  const kind = kindOf(issue.issue_type);
  const mayUpdate = context.user ? canUpdateIssue(access, issue) : false;
  const mayComment = context.user ? canOnProject(access, 'create_note') : false;
  const body = html`
<p class="issue-meta">${stateBadge(issue)} ${confidentialBadge(issue)} <span class="muted">${kind.singular} created ${when(issue.created_at)} by ${authorLink(users, issue.author_id)}</span></p>
${alert ? html`<p class="linked-alert">Created from alert <a href="${base}/-/alert_management/${alert.iid}/details">^alert#${alert.iid}: ${alert.title}</a> <span class="badge">${STATUS_NAMES[alert.status] ?? ''}</span></p>` : ''}
<div class="markdown description">${description ? raw(description) : html`<p class="muted">No description.</p>`}</div>
${mayUpdate ? html`<form method="post" action="${self}" class="actions">${csrfField(context)}<input type="hidden" name="state_event" value="${issue.state === 'opened' ? 'close' : 'reopen'}"><button type="submit" class="secondary">${issue.state === 'opened' ? `Close ${kind.singular.toLowerCase()}` : `Reopen ${kind.singular.toLowerCase()}`}</button></form>` : ''}
<h2>Activity</h2>
<div id="notes">${notes.map(
    (note, index) => html`<article class="note${note.system ? ' system' : ''}" id="note_${note.id}"><p class="meta">${authorLink(users, note.author_id)} · ${when(note.created_at)}</p><div class="markdown">${raw(noteBodies[index])}</div></article>`,
  )}</div>
${notes.length === 0 ? html`<p class="muted">No comments yet.</p>` : ''}
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
${
  mayComment
    ? html`<form method="post" action="${self}" class="stacked" id="new-note">${csrfField(context)}<label for="note-body">Add a comment</label><textarea id="note-body" name="note" required></textarea><p class="muted">Markdown is supported.</p><button type="submit">Comment</button></form>`
    : context.user ? '' : html`<p><a href="/users/sign_in?return_to=${encodeURIComponent(self)}">Sign in</a> to comment.</p>`
}`;
  return page({
    title: `${issue.title} (#${issue.iid}) · ${kind.plural} · ${access.project.name}`,
    heading: html`<h1>${issue.title} <span class="muted">#${issue.iid}</span></h1>`,
    body,
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
    if (error instanceof ValidationError) {
      const result = await renderIssue(context, access, 'Comment can’t be blank.');
      return { ...result, status: 400 };
    }
    throw error;
  }
}

function renderForbidden(): never {
  throw new ForbiddenError();
}
