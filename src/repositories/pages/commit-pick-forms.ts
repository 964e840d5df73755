// The commit page's Revert and Cherry-pick (GitLab's commit "Options" menu and its two dialogs): a
// branch to put the change on, posted to `<commit>/revert` or `<commit>/cherry_pick` as `start_branch`,
// for whoever may push. The work is the API's (pick-commit.ts); a refusal comes back to the commit page.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { csrfField } from '../../platform/web/page-route.js';
import { redirect } from '../../platform/web/page.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { listRefs } from '../git.js';
import { BRANCH_PREFIX } from '../repository-api/ref-names.js';
import type { CommitObject } from '../repository-api/git-objects.js';
import { findProjectCommit } from '../repository-api/pages-api.js';
import { RepositoryApiError } from '../repository-api/errors.js';
import { pickCommit, type PickKind } from '../repository-api/pick-commit.js';
import { field } from './commit-form.js';
import { repoUrl } from './urls.js';

export const PICK_PATTERN = /^(?<path>.+?)\/-\/commit\/(?<sha>[0-9a-fA-F]{4,64})\/(?<kind>revert|cherry_pick)$/;

/** Branches offered in the forms' lists (any branch name may be typed). */
const BRANCHES_OFFERED = 200;

const LABELS: Record<PickKind, { button: string; branch: string; done: (branch: string) => string }> = {
  revert: { button: 'Revert', branch: 'Revert in branch', done: () => 'The commit has been successfully reverted.' },
  cherry_pick: { button: 'Cherry-pick', branch: 'Pick into branch', done: (branch) => `The commit has been successfully cherry-picked into ${branch}.` },
};

/** The two forms, for a user who may push; nothing for others (and no refs read for them). */
export async function pickForms(context: PageContext, access: ProjectAccess, commit: CommitObject, repoPath: string): Promise<Html> {
  if (!canOnProject(access, 'push_code')) return html``;
  const branches = [...(await listRefs(repoPath)).keys()].filter((ref) => ref.startsWith(BRANCH_PREFIX)).map((ref) => ref.slice(BRANCH_PREFIX.length));
  const base = `/${access.project.full_path}/-/commit/${commit.id}`;
  const form = (kind: PickKind) => html`<form class="stacked" method="post" action="${base}/${kind}">${csrfField(context)}
<label for="${kind}-branch">${LABELS[kind].branch}</label>
<input type="text" id="${kind}-branch" name="start_branch" list="pick-branches" value="${access.project.default_branch}" required autocomplete="off">
<p class="actions"><button type="submit" class="secondary">${LABELS[kind].button}</button></p></form>`;
  return html`<details class="commit-options"><summary>Options</summary>
<datalist id="pick-branches">${branches.slice(0, BRANCHES_OFFERED).map((name) => html`<option value="${name}"></option>`)}</datalist>
${form('revert')}${form('cherry_pick')}</details>`;
}

/** POST `<commit>/revert` or `<commit>/cherry_pick`: the branch's commits with GitLab's notice, or the commit page with the refusal. */
export async function pickFromForm(context: PageContext, access: ProjectAccess) {
  const kind = context.match.kind as PickKind;
  const branch = field(context.form, 'start_branch').trim();
  const found = await findProjectCommit(context.deps, access, context.match.sha);
  const back = `/${access.project.full_path}/-/commit/${found.commit.id}`;
  if (branch === '') return redirect(back, 'Choose a branch.');
  try {
    await pickCommit(context.deps, access, { kind, commit: found.commit, branch, dryRun: false });
    return redirect(repoUrl(`/${access.project.full_path}`, 'commits', branch), LABELS[kind].done(branch));
  } catch (error) {
    if (error instanceof RepositoryApiError) return redirect(back, error.status === 404 ? `There is no branch ${branch}.` : error.message);
    throw error;
  }
}
