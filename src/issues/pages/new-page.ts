// The new issue form (title, description, type, confidential) for those who may create issues. The
// project's description templates are offered (the templates feature's picker, through the hook):
// `issuable_template=<name>` fills the description with one, and `Default` fills a new form's, as GitLab's.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { ValidationError } from '../../platform/errors.js';
import { createIssue } from '../create-issue.js';
import { attachControl } from '../../uploads/api.js';
import { issueHooks, NO_ISSUABLE_TEMPLATES } from '../hooks.js';
import { requestDetail } from '../../platform/http/user-agent-detail.js';

export const NEW_ISSUE_PATTERN = /^(?<path>.+?)\/-\/issues\/new$/;

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export async function renderNewIssue(context: PageContext, access: ProjectAccess, posted?: Record<string, string>, error?: string, status = 200) {
  const asked = context.query.issuable_template;
  const type = posted?.issue_type ?? (context.query.issue_type === 'incident' ? 'incident' : 'issue');
  const picker = await (issueHooks(context.deps).issuableTemplates?.(access, 'issues', {
    asked: typeof asked === 'string' ? asked : undefined, fresh: !posted,
    action: `/${access.project.full_path}/-/issues/new`, hidden: type === 'incident' ? { issue_type: 'incident' } : {}, textarea: 'issue-description',
  }) ?? NO_ISSUABLE_TEMPLATES);
  const values = posted ?? (picker.content === undefined ? {} : { description: picker.content });
  const body = html`
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/${access.project.full_path}/-/issues/new" class="stacked" id="new-issue">
${csrfField(context)}
<label for="issue-title">Title</label><input type="text" id="issue-title" name="title" value="${values.title ?? ''}" required maxlength="255">
<label for="issue-type">Type</label><select id="issue-type" name="issue_type"><option value="issue"${type === 'issue' ? html` selected` : ''}>Issue</option><option value="incident"${type === 'incident' ? html` selected` : ''}>Incident</option></select>
${picker.control}
<label for="issue-description">Description</label><textarea id="issue-description" name="description">${values.description ?? ''}</textarea>
<p class="muted">Markdown is supported.</p>${attachControl(access.project.full_path)}
${html`<p><input type="checkbox" id="issue-confidential" name="confidential" value="1"${values.confidential ? html` checked` : ''}> <label for="issue-confidential">This issue is confidential and should only be visible to team members with at least the Reporter role.</label></p>`}
<button type="submit">Create ${type}</button>
</form>
${picker.form}`;
  return page({ title: `New issue · ${access.project.name}`, body, status, sidebar: projectSidebar(access, type === 'incident' ? 'incidents' : 'issues') });
}

export async function handleNewIssue(context: PageContext, access: ProjectAccess) {
  const { form } = context;
  const values = { title: str(form.title), description: str(form.description), issue_type: form.issue_type === 'incident' ? 'incident' : 'issue', confidential: form.confidential ? '1' : '' };
  try {
    const issue = await createIssue(context.deps, {
      projectId: access.project.id,
      authorId: context.user.id,
      title: values.title,
      description: values.description || null,
      issueType: values.issue_type as 'issue' | 'incident',
      confidential: values.confidential === '1',
      project: access.project,
      request: requestDetail(context.request),
    });
    return redirect(`/${access.project.full_path}/-/issues/${issue.iid}`, `${values.issue_type === 'incident' ? 'Incident' : 'Issue'} created.`);
  } catch (error) {
    if (error instanceof ValidationError) return renderNewIssue(context, access, values, `Title ${values.title.trim() ? 'is too long (maximum is 255 characters)' : 'can’t be blank'}.`, 400);
    throw error;
  }
}
