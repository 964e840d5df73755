// Editing an issue's title and description (those who may update it). The form carries the version
// of the description it started from: when someone else changed it meanwhile, nothing is saved, the
// typed text is kept in the form and the current description is shown beside it to merge by hand.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canUpdateIssue } from '../../platform/auth/policies/issue-policy.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { ConflictError, ForbiddenError, ValidationError } from '../../platform/errors.js';
import { findReadableIssue, type PolicyIssue } from '../finder.js';
import { updateIssue } from '../update-issue.js';
import { descriptionVersion } from '../task-list.js';
import { kindOf } from './shared.js';
import { attachControl } from '../../uploads/api.js';

export const ISSUE_EDIT_PATTERN = /^(?<path>.+?)\/-\/issues\/(?<iid>\d{1,9})\/edit$/;
const TITLE_MAX = 255;

interface EditValues {
  title: string;
  description: string;
  version: string;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function renderForm(context: PageContext, access: ProjectAccess, issue: PolicyIssue, values: EditValues, problem?: { titleError?: string; conflict?: boolean }, status = 200) {
  const self = `/${access.project.full_path}/-/issues/${issue.iid}`;
  const kind = kindOf(issue.issue_type);
  const titleError = problem?.titleError;
  const conflict: Html = problem?.conflict
    ? html`<div class="error" role="alert"><p>Someone changed this description while you were editing it. Nothing was saved. Your text is kept below; the current description is this one — merge what you need, then save again.</p><pre class="wrap-anywhere" id="current-description">${issue.description ?? ''}</pre></div>`
    : html``;
  const body = html`${conflict}
<form method="post" action="${self}/edit" class="stacked" id="edit-issue">${csrfField(context)}<input type="hidden" name="description_version" value="${values.version}">
<label for="issue-title">Title</label><input type="text" id="issue-title" name="title" value="${values.title}" required maxlength="${TITLE_MAX}"${titleError ? html` aria-invalid="true" aria-describedby="issue-title-error"` : ''}>
${titleError ? html`<p class="field-error" id="issue-title-error">${titleError}</p>` : ''}
<label for="issue-description">Description</label><textarea id="issue-description" name="description">${values.description}</textarea>
<p class="muted">Markdown is supported. <code>- [ ] item</code> makes a checklist item.</p>${attachControl(access.project.full_path)}
<p class="actions"><button type="submit">Save changes</button> <a href="${self}">Cancel</a></p>
</form>`;
  return page({ title: `Edit ${kind.singular.toLowerCase()} #${issue.iid} · ${access.project.name}`, heading: html`<h1>Edit ${kind.singular.toLowerCase()} <span class="muted">#${issue.iid}</span></h1>`, body, status, sidebar: projectSidebar(access, issue.issue_type === 'incident' ? 'incidents' : 'issues') });
}

async function editableIssue(context: PageContext, access: ProjectAccess): Promise<PolicyIssue> {
  const issue = await findReadableIssue(context.deps, access, Number(context.match.iid));
  if (!canUpdateIssue(access, issue)) throw new ForbiddenError();
  return issue;
}

export async function renderEditIssue(context: PageContext, access: ProjectAccess) {
  const issue = await editableIssue(context, access);
  return renderForm(context, access, issue, { title: issue.title, description: issue.description ?? '', version: descriptionVersion(issue.description) });
}

export async function handleEditIssue(context: PageContext, access: ProjectAccess) {
  const issue = await editableIssue(context, access);
  const { form } = context;
  const values = { title: str(form.title), description: str(form.description).replace(/\r\n/g, '\n'), version: str(form.description_version) };
  if (!values.title.trim()) return renderForm(context, access, issue, values, { titleError: 'Title can’t be blank.' }, 400);
  if (values.title.trim().length > TITLE_MAX) return renderForm(context, access, issue, values, { titleError: `Title is too long (maximum is ${TITLE_MAX} characters).` }, 400);
  // Another change since the form was loaded: keep what was typed, show the current text, and take
  // the current version so that a second save, after merging, goes through.
  const conflicted = () => renderForm(context, access, issue, { ...values, version: descriptionVersion(issue.description) }, { conflict: true }, 409);
  if (values.version !== descriptionVersion(issue.description)) return conflicted();
  try {
    await updateIssue(context.deps, context.user.id, issue, { title: values.title, description: values.description === '' ? null : values.description, expectedDescription: issue.description });
  } catch (error) {
    if (error instanceof ConflictError) {
      const current = await findReadableIssue(context.deps, access, issue.iid);
      return renderForm(context, access, current, { ...values, version: descriptionVersion(current.description) }, { conflict: true }, 409);
    }
    if (error instanceof ValidationError) return renderForm(context, access, issue, values, { titleError: 'Title can’t be blank.' }, 400);
    throw error;
  }
  return redirect(`/${access.project.full_path}/-/issues/${issue.iid}`, `${kindOf(issue.issue_type).singular} updated.`);
}
