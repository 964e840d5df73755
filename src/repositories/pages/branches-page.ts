// The branches of a project (GitLab's branches page): searched by name, 20 a page, each with its
// last commit, how far it is ahead of and behind the default branch (one `rev-list` per branch of
// the page), whether it is protected or merged; and for those who may push, a form for a new branch
// and a delete button (a protected branch only by whoever may delete protected branches, with the
// refusals of a push: repository-api/write-ref.ts).
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { csrfField } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { aheadBehind } from '../repository-api/git-reads.js';
import { readCommits } from '../repository-api/object-reader.js';
import { findBranches } from '../repository-api/branches-finder.js';
import { createBranch } from '../repository-api/create-branch.js';
import { deleteBranch } from '../repository-api/delete-branch.js';
import { isProtectedBranch, loadBranchRules } from '../repository-api/branch-rules.js';
import { RepositoryApiError } from '../repository-api/errors.js';
import { timeElement } from './time.js';
import { commitTitle } from './shared.js';
import { repoUrl } from './urls.js';

export const BRANCHES_PATTERN = /^(?<path>.+?)\/-\/branches$/;
export const NEW_BRANCH_PATTERN = /^(?<path>.+?)\/-\/branches\/new$/;
export const DELETE_BRANCH_PATTERN = /^(?<path>.+?)\/-\/branches\/delete$/;
const PER_PAGE = 20;

function field(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

export async function renderBranches(context: PageContext, access: ProjectAccess) {
  const base = `/${access.project.full_path}`;
  const search = (context.query.search ?? '').slice(0, 255);
  const pageNumber = Math.max(1, Math.min(10_000, Number.parseInt(context.query.page ?? '1', 10) || 1));
  const list = await findBranches(context.deps, access, { search, sort: 'updated_desc' });
  const shown = list.branches.slice((pageNumber - 1) * PER_PAGE, pageNumber * PER_PAGE);
  const repoPath = list.repoPath;
  const defaultTip = list.branches.find((branch) => branch.name === access.project.default_branch)?.tip;
  const [commits, rules, counts] = repoPath
    ? await Promise.all([
        readCommits(repoPath, shown.map((branch) => branch.tip)),
        loadBranchRules(context.deps, access),
        Promise.all(shown.map((branch) => (defaultTip && branch.tip !== defaultTip ? aheadBehind(repoPath, defaultTip, branch.tip) : Promise.resolve({ ahead: 0, behind: 0 })))),
      ])
    : [new Map(), null, []];
  const mayPush = canOnProject(access, 'push_code');
  const mayDeleteProtected = canOnProject(access, 'delete_protected_branch');
  const now = context.deps.clock.now();
  const rows = shown.map((branch, index) => {
    const commit = commits.get(branch.tip);
    const isDefault = branch.name === access.project.default_branch;
    const protectedBranch = rules ? isProtectedBranch(rules, branch.name, false) : false;
    const count = counts[index];
    const deletable = mayPush && !isDefault && (!protectedBranch || mayDeleteProtected);
    return html`<li data-branch="${branch.name}"><div class="commit-main"><a class="commit-title" href="${repoUrl(base, 'tree', branch.name)}">${branch.name}</a>
${isDefault ? html` <span class="badge">default</span>` : ''}${protectedBranch ? html` <span class="badge">protected</span>` : ''}
${!isDefault && count && count.ahead === 0 ? html` <span class="badge">merged</span>` : ''}
<br><span class="muted">${commit ? html`<a href="${base}/-/commit/${commit.id}"><code>${commit.id.slice(0, 8)}</code></a> ${commitTitle(commit)} · ${timeElement(commit.committer.seconds, now)}` : ''}</span></div>
${!isDefault && count ? html`<span class="ahead-behind" title="Compared with ${access.project.default_branch}"><span>${count.behind} behind</span><span>${count.ahead} ahead</span></span>` : ''}
${!isDefault ? html`<a class="button small secondary" href="${base}/-/compare/${encodeURIComponent(access.project.default_branch)}...${encodeURIComponent(branch.name)}">Compare</a>` : ''}
${deletable ? html`<form class="inline" method="post" action="${base}/-/branches/delete" data-confirm="Delete the branch ${branch.name}?">${csrfField(context)}<input type="hidden" name="name" value="${branch.name}"><button type="submit" class="small danger" aria-label="Delete the branch ${branch.name}">Delete</button></form>` : ''}</li>`;
  });
  const more = list.branches.length > pageNumber * PER_PAGE;
  const query = (next: number) => `${base}/-/branches?${new URLSearchParams({ ...(search ? { search } : {}), page: String(next) }).toString()}`;
  const body = html`
<div class="actions">
<form method="get" action="${base}/-/branches" role="search"><label class="visually-hidden" for="branch-search">Filter by branch name</label><input type="search" id="branch-search" name="search" value="${search}" placeholder="Filter by branch name"> <button type="submit" class="secondary">Search</button></form>
${mayPush ? html`<a class="button" href="${base}/-/branches/new">New branch</a>` : ''}
${canOnProject(access, 'admin_protected_branch') ? html`<a class="button secondary" href="${base}/-/settings/repository">Protected branches</a>` : ''}
</div>
${rows.length ? html`<ul class="commit-list" id="branches">${rows}</ul>` : html`<p class="empty">No branches${search ? html` match <code>${search}</code>` : ''}.</p>`}
<nav class="pagination" aria-label="Pages">${pageNumber > 1 ? html`<a href="${query(pageNumber - 1)}" rel="prev">Previous</a>` : ''}${more ? html`<a href="${query(pageNumber + 1)}" rel="next">Next</a>` : ''}</nav>`;
  return page({ title: `Branches · ${access.project.name}`, heading: html`<h1>Branches</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}

function newBranchForm(context: PageContext, access: ProjectAccess, values: { name: string; ref: string }, error?: string): Html {
  const base = `/${access.project.full_path}`;
  return html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}<form class="stacked" method="post" action="${base}/-/branches/new">${csrfField(context)}
<label for="branch-name">Branch name</label><input type="text" id="branch-name" name="branch_name" value="${values.name}" required>
<label for="branch-ref">Create from</label><input type="text" id="branch-ref" name="ref" value="${values.ref}" required>
<p class="muted">An existing branch name, tag, or commit SHA.</p>
<p class="actions"><button type="submit">Create branch</button> <a href="${base}/-/branches">Cancel</a></p></form>`;
}

export async function renderNewBranch(context: PageContext, access: ProjectAccess) {
  const body = newBranchForm(context, access, { name: '', ref: context.query.ref ?? access.project.default_branch });
  return page({ title: `New branch · ${access.project.name}`, heading: html`<h1>New branch</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}

export async function createBranchFromForm(context: PageContext, access: ProjectAccess) {
  const values = { name: field(context.form, 'branch_name').trim(), ref: field(context.form, 'ref').trim() };
  try {
    const created = await createBranch(context.deps, access, { name: values.name, ref: values.ref });
    return redirect(repoUrl(`/${access.project.full_path}`, 'tree', created.name), `Branch ${created.name} was created.`);
  } catch (error) {
    if (!(error instanceof RepositoryApiError)) throw error;
    return page({ status: 400, title: `New branch · ${access.project.name}`, heading: html`<h1>New branch</h1>`, body: newBranchForm(context, access, values, error.message), sidebar: projectSidebar(access, 'repository') });
  }
}

export async function deleteBranchFromForm(context: PageContext, access: ProjectAccess) {
  const name = field(context.form, 'name');
  const base = `/${access.project.full_path}`;
  try {
    await deleteBranch(context.deps, access, name);
    return redirect(`${base}/-/branches`, `Branch ${name} was deleted.`);
  } catch (error) {
    if (error instanceof RepositoryApiError) return redirect(`${base}/-/branches`, error.message);
    throw error;
  }
}
