// What every "edit as a commit" form shares (GitLab's blob forms): the commit message, the branch the
// commit goes to (the current one, or a new one started from it), and the step that makes the commit
// through the files API's plumbing (repository-api/commit-files.ts): the same refusals as a push to
// that branch, and a file changed meanwhile refused with GitLab's message rather than overwritten.
// A refused form comes back with what was typed, so nothing is lost.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { csrfField } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { NotFoundError } from '../../platform/errors.js';
import { commitFiles } from '../repository-api/commit-files.js';
import type { FileAction } from '../repository-api/file-actions.js';
import { RepositoryApiError } from '../repository-api/errors.js';
import type { ResolvedRef } from './resolve-ref.js';
import { repoUrl } from './urls.js';

/** Files::UpdateService::FileChangedError, as the files API says it. */
export const FILE_CHANGED = 'You are attempting to update a file that has changed since you started editing it.';
export const COMMITTED = 'Your changes have been committed successfully.';

export function field(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

/** Only a branch can take a commit; a tag or a SHA is not "on a branch". */
export function requireBranch(resolved: ResolvedRef): void {
  if (resolved.kind !== 'branch') throw new NotFoundError('Branch');
}

export function commitFields(context: PageContext, values: { message: string; branch: string }, currentBranch: string): Html {
  return html`${csrfField(context)}
<label for="commit-message">Commit message</label><textarea id="commit-message" name="commit_message" required>${values.message}</textarea>
<label for="branch-name">Target branch</label><input type="text" id="branch-name" name="branch_name" value="${values.branch || currentBranch}" required>
<p class="muted">Another name commits to a new branch started from <code>${currentBranch}</code>.</p>`;
}

export function formPage(access: ProjectAccess, title: string, body: Html, error?: string, status?: number): PageOutcome {
  return page({
    status,
    title: `${title} · ${access.project.name}`,
    heading: html`<h1>${title}</h1>`,
    body: html`${error ? html`<p class="error" role="alert" id="commit-error">${error}</p>` : ''}${body}`,
    sidebar: projectSidebar(access, 'repository'),
  });
}

/**
 * Commit `actions` on the form's target branch; then show `showPath` there. A refusal answers
 * `again(message)`: the form once more, with the error and what was typed.
 */
export async function commitFromForm(
  context: PageContext,
  access: ProjectAccess,
  resolved: ResolvedRef,
  input: { actions: FileAction[]; defaultMessage: string; showPath: string; showKind: 'blob' | 'tree' },
  again: (error: string) => PageOutcome,
): Promise<PageOutcome> {
  const branch = field(context.form, 'branch_name').trim() || resolved.ref;
  const message = field(context.form, 'commit_message').trim() || input.defaultMessage;
  try {
    await commitFiles(context.deps, access, {
      branch,
      startBranch: resolved.ref,
      message,
      actions: input.actions,
      changedMessage: () => FILE_CHANGED,
    });
  } catch (error) {
    if (error instanceof RepositoryApiError) return again(error.message);
    throw error;
  }
  return redirect(repoUrl(`/${access.project.full_path}`, input.showKind, branch, input.showPath), COMMITTED);
}
