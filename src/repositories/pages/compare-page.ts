// Two revisions compared (GitLab's compare pages): a form to choose them, then `from...to`: the
// commits of `to` not in `from` and the diff from their merge base, with a swap and, for two
// branches, the link that starts a merge request of `to` into `from`.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { fragment, page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { NotFoundError } from '../../platform/errors.js';
import { diffModeOf, renderDiffFileBody, renderDiffView } from '../diff-view/index.js';
import { compareRefs, readableRepository } from '../repository-api/pages-api.js';
import { repositoryRefs } from '../repository-api/project-repository.js';
import { BRANCH_PREFIX, TAG_PREFIX } from '../repository-api/ref-names.js';
import { commitList } from './commit-list.js';
import { findAuthors } from './people.js';
import { refPath } from './urls.js';
import { commitStatusBadges, statusBadge } from './commit-status.js';

export const COMPARE_FORM_PATTERN = /^(?<path>.+?)\/-\/compare$/;
export const COMPARE_FILE_PATTERN = /^(?<path>.+?)\/-\/compare\/diff_file$/;
export const COMPARE_PATTERN = /^(?<path>.+?)\/-\/compare\/(?<from>.+?)\.\.\.(?<to>.+)$/;
const NAMES_OFFERED = 200;

async function refNames(context: PageContext, access: ProjectAccess) {
  const refs = await repositoryRefs(await readableRepository(context.deps, access.project));
  const names = (prefix: string) => [...refs.keys()].filter((ref) => ref.startsWith(prefix)).map((ref) => ref.slice(prefix.length));
  return { refs, branches: names(BRANCH_PREFIX), tags: names(TAG_PREFIX) };
}

function compareForm(base: string, from: string, to: string, branches: string[], tags: string[]) {
  return html`<form class="stacked compare-form" method="get" action="${base}/-/compare">
<label for="compare-from">Target (from)</label><input type="text" id="compare-from" name="from" value="${from}" list="compare-refs" required>
<label for="compare-to">Source (to)</label><input type="text" id="compare-to" name="to" value="${to}" list="compare-refs" required>
<datalist id="compare-refs">${[...branches, ...tags].slice(0, NAMES_OFFERED).map((name) => html`<option value="${name}"></option>`)}</datalist>
<p class="actions"><button type="submit">Compare</button></p>
</form>`;
}

export async function renderCompareForm(context: PageContext, access: ProjectAccess) {
  const base = `/${access.project.full_path}`;
  const { from, to } = context.query;
  if (from && to) return redirect(`${base}/-/compare/${refPath(from)}...${refPath(to)}`);
  const { branches, tags } = await refNames(context, access);
  const body = html`<p>Choose two branches, tags or commits to see what changed between them.</p>${compareForm(base, from ?? access.project.default_branch, to ?? '', branches, tags)}`;
  return page({ title: `Compare · ${access.project.name}`, heading: html`<h1>Compare revisions</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}

export async function renderCompare(context: PageContext, access: ProjectAccess) {
  const { from, to } = context.match;
  const comparison = await compareRefs(context.deps, access, { from, to, straight: false, unidiff: false });
  const base = `/${access.project.full_path}`;
  const mode = diffModeOf(context.query);
  const here = `${base}/-/compare/${refPath(from)}...${refPath(to)}`;
  const { refs, branches, tags } = await refNames(context, access);
  const bothBranches = refs.has(`${BRANCH_PREFIX}${from}`) && refs.has(`${BRANCH_PREFIX}${to}`);
  const mergeRequest = bothBranches && !comparison.same && canOnProject(access, 'push_code')
    ? html`<a class="button" id="create-merge-request" href="${base}/-/merge_requests/new?${new URLSearchParams({ 'merge_request[source_branch]': to, 'merge_request[target_branch]': from }).toString()}">Create merge request</a>`
    : '';
  const [authors, diff, statuses] = comparison.same
    ? [new Map(), html``, new Map()]
    : await Promise.all([
        findAuthors(context.deps, comparison.commits.map((commit) => commit.author)),
        renderDiffView(comparison.diffs, {
          projectPath: access.project.full_path,
          oldSha: comparison.baseId,
          newSha: comparison.toId,
          mode,
          modeUrl: (next) => `${here}?view=${next}`,
          fileUrl: (file) => `${base}/-/compare/diff_file?${new URLSearchParams({ from: comparison.baseId, to: comparison.toId, path: file.new_path, view: mode }).toString()}`,
        }),
        commitStatusBadges(context.deps, access.project, comparison.commits.map((commit) => commit.id)),
      ]);
  const body = html`
${compareForm(base, from, to, branches, tags)}
<p class="actions"><a class="button secondary" id="swap-revisions" href="${base}/-/compare/${refPath(to)}...${refPath(from)}">Swap revisions</a> ${mergeRequest}</p>
${comparison.same ? html`<p class="empty">These are the same revision: nothing to compare.</p>` : html`
<h2>Commits <span class="badge">${comparison.commits.length}</span></h2>
${comparison.commits.length ? commitList({ base, authors, nowMs: context.deps.clock.now(), statusOf: (commit) => statusBadge(statuses.get(commit.id)) }, [...comparison.commits].reverse()) : html`<p class="empty">No commits: ${to} is already in ${from}.</p>`}
<h2>Changes</h2>
${diff}`}`;
  return page({ title: `Compare ${from}...${to} · ${access.project.name}`, heading: html`<h1>Compare <code>${from}</code>...<code>${to}</code></h1>`, body, sidebar: projectSidebar(access, 'repository') });
}

/** One file of a comparison's diff (the diff view's `fileUrl`). */
export async function renderCompareFile(context: PageContext, access: ProjectAccess) {
  const { from, to, path } = context.query;
  if (!from || !to || !path) throw new NotFoundError('File');
  const comparison = await compareRefs(context.deps, access, { from, to, straight: true, unidiff: false });
  const file = comparison.diffs.find((diff) => diff.new_path === path);
  if (!file) throw new NotFoundError('File');
  return fragment(await renderDiffFileBody(file, { projectPath: access.project.full_path, oldSha: comparison.fromId, newSha: comparison.toId, mode: diffModeOf(context.query) }));
}
