// One commit (GitLab's project commit page): its message, author and committer, parents, the
// branches and tags that contain it, and its diff in the diff view; `.diff` and `.patch` as text.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { findCommitNoteable } from '../commit-comments/commit-noteable.js';
import { commitNotesSection } from './commit-notes-section.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { ANSWERED, fragment, page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { NotFoundError } from '../../platform/errors.js';
import { gitBytes } from '../git.js';
import { diffModeOf, renderDiffFileBody, renderDiffView } from '../diff-view/index.js';
import { diffOf, findProjectCommit, refsOf } from '../repository-api/pages-api.js';
import { EMPTY_TREE } from '../repository-api/git-reads.js';
import { commitTitle } from './shared.js';
import { authorName, avatarOf, findAuthors } from './people.js';
import { timeElement } from './time.js';
import { setRawHeaders } from '../../platform/http/raw-headers.js';
import { commitStatusBadges, statusBadge } from './commit-status.js';
import { signatureBadges } from '../commit-signatures/badge.js';
import { pickForms } from './commit-pick-forms.js';

export const COMMIT_PATTERN = /^(?<path>.+?)\/-\/commit\/(?<sha>[0-9a-fA-F]{4,64})$/;
export const COMMIT_TEXT_PATTERN = /^(?<path>.+?)\/-\/commit\/(?<sha>[0-9a-fA-F]{4,64})\.(?<format>diff|patch)$/;
export const COMMIT_FILE_PATTERN = /^(?<path>.+?)\/-\/commit\/(?<sha>[0-9a-fA-F]{4,64})\/diff_file$/;
const REFS_SHOWN = 20;

function refLinks(base: string, kind: 'branch' | 'tag', names: string[]) {
  if (names.length === 0) return html``;
  const shown = names.slice(0, REFS_SHOWN);
  return html`<p class="commit-refs"><strong>${kind === 'branch' ? 'Branches' : 'Tags'}:</strong> ${shown.map(
    (name, index) => html`${index > 0 ? ', ' : ''}<a href="${base}/-/${kind === 'branch' ? 'tree' : 'tags'}/${name}">${name}</a>`,
  )}${names.length > shown.length ? html` and ${names.length - shown.length} more` : ''}</p>`;
}

export async function renderCommit(context: PageContext, access: ProjectAccess) {
  const noteable = await findCommitNoteable(context.deps, access, context.match.sha);
  const { found } = noteable;
  const { commit } = found;
  const base = `/${access.project.full_path}`;
  const mode = diffModeOf(context.query);
  const [diffs, refs, authors, comments, statuses, signatures, options] = await Promise.all([
    diffOf(found),
    refsOf(found, 'all'),
    findAuthors(context.deps, [commit.author, commit.committer]),
    commitNotesSection(context, access, noteable),
    commitStatusBadges(context.deps, access.project, [commit.id]),
    signatureBadges(context.deps, access.project, found.repoPath, [commit.id]),
    pickForms(context, access, commit, found.repoPath),
  ]);
  const status = statusBadge(statuses.get(commit.id));
  const diff = await renderDiffView(diffs, {
    projectPath: access.project.full_path,
    oldSha: commit.parents[0] ?? null,
    newSha: commit.id,
    mode,
    modeUrl: (next) => `${base}/-/commit/${commit.id}?view=${next}`,
    fileUrl: (file) => `${base}/-/commit/${commit.id}/diff_file?path=${encodeURIComponent(file.new_path)}&view=${mode}`,
    rawDiffUrl: `${base}/-/commit/${commit.id}.diff`,
  });
  const now = context.deps.clock.now();
  const title = commitTitle(commit);
  const description = commit.message.slice(commit.message.indexOf('\n') + 1).trim();
  const body = html`
<div class="commit-header" data-permalink="${base}/-/commit/${commit.id}">
<p class="commit-author">${avatarOf(authors, commit.author)} ${authorName(authors, commit.author)} authored ${timeElement(commit.author.seconds, now)}${
    commit.committer.email !== commit.author.email || commit.committer.name !== commit.author.name
      ? html` · committed by ${authorName(authors, commit.committer)} ${timeElement(commit.committer.seconds, now)}`
      : ''
  }</p>
<h2 class="commit-title">${title}</h2>
${description && commit.message.includes('\n') ? html`<pre class="commit-description">${description}</pre>` : ''}
<p>Commit <code class="sha" id="commit-sha">${commit.id}</code> <button type="button" class="small secondary" data-copy="commit-sha">Copy</button> ${signatures.get(commit.id) ?? ''}</p>
${status ? html`<p class="commit-pipeline">${status}</p>` : ''}
<p>${commit.parents.length ? html`${commit.parents.length === 1 ? 'Parent' : 'Parents'} ${commit.parents.map((parent) => html`<a href="${base}/-/commit/${parent}"><code>${parent.slice(0, 8)}</code></a> `)}` : html`<span class="muted">No parents (root commit)</span>`}
 · <a href="${base}/-/tree/${commit.id}">Browse files</a> · <a href="${base}/-/commit/${commit.id}.diff">Plain diff</a> · <a href="${base}/-/commit/${commit.id}.patch">Email patch</a></p>
${refLinks(base, 'branch', refs.filter((ref) => ref.type === 'branch').map((ref) => ref.name))}
${refLinks(base, 'tag', refs.filter((ref) => ref.type === 'tag').map((ref) => ref.name))}
${options}
</div>
<h2>Changes</h2>
${diff}
${comments}`;
  return page({ title: `${title} · Commit ${commit.id.slice(0, 8)} · ${access.project.name}`, heading: html`<h1>Commit <code>${commit.id.slice(0, 8)}</code></h1>`, body, sidebar: projectSidebar(access, 'repository') });
}

/** `<sha>.diff` (git diff) and `<sha>.patch` (git format-patch), as GitLab serves them. */
export async function renderCommitText(context: PageContext, access: ProjectAccess) {
  const found = await findProjectCommit(context.deps, access, context.match.sha);
  const { commit } = found;
  const args =
    context.match.format === 'patch'
      ? ['format-patch', '--stdout', '--no-signature', '--no-color', '-1', commit.id]
      : ['diff-tree', '-p', '--no-color', '--no-ext-diff', '--full-index', '--binary', commit.parents[0] ?? EMPTY_TREE, commit.id];
  const text = await gitBytes(found.repoPath, args);
  setRawHeaders(context.reply, `${commit.id}.${context.match.format}`, 'text/plain; charset=utf-8');
  context.reply.send(text);
  return ANSWERED;
}

/** One file of the commit's diff (the diff view's `fileUrl`): what a collapsed file loads when opened. */
export async function renderCommitFile(context: PageContext, access: ProjectAccess) {
  const found = await findProjectCommit(context.deps, access, context.match.sha);
  const path = context.query.path ?? '';
  const file = (await diffOf(found)).find((diff) => diff.new_path === path);
  if (!file) throw new NotFoundError('File');
  const { commit } = found;
  return fragment(await renderDiffFileBody(file, { projectPath: access.project.full_path, oldSha: commit.parents[0] ?? null, newSha: commit.id, mode: diffModeOf(context.query) }));
}
