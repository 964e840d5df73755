// A directory of the repository at a ref (GitLab's tree page): the ref switcher and the path, the
// last commit that changed the directory, every entry (folders first) with the last commit that
// changed it and when (one `git log` walk for the whole directory: last-commits.ts, kept by commit,
// most often computed after the push that made the commit: page-caches.ts), the download
// and "new" menus, and the directory's README rendered below. When that walk was never done for the
// commit, the page does not wait for it: the entries are shown at once and the "last commit" column
// comes with a follow-up request (`?last_commits=<sha>`, as GitLab's tree asks its `logs_tree`).
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { escapeHtml, html, raw, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { fragment, page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { listTree, entryAt, lastCommitFor } from '../repository-api/git-reads.js';
import { treesFirst } from '../repository-api/tree-finder.js';
import { findCommit, readCommits, readObject } from '../repository-api/object-reader.js';
import { keptTree, lastCommitsAt, startLastCommits } from '../repository-api/page-caches.js';
import type { TreeLastCommits } from '../repository-api/last-commits.js';
import { isBinary } from '../repository-api/files-finder.js';
import { baseName, type TreeEntry } from '../repository-api/tree-entries.js';
import type { CommitObject } from '../repository-api/git-objects.js';
import { readableRepository, repositoryRefs, isEmptyRepository } from '../repository-api/project-repository.js';
import { resolveRef, type ResolvedRef } from './resolve-ref.js';
import { refBar } from './ref-bar.js';
import { findAuthors, authorName, avatarOf } from './people.js';
import { timeElement } from './time.js';
import { commitTitle } from './shared.js';
import { relativeLinksFor, repoUrl } from './urls.js';
import { archiveLinks } from './archive-page.js';

export const TREE_PATTERN = /^(?<path>.+?)\/-\/tree\/(?<rest>.+)$/;
const README = /^readme(?:\.(md|markdown|mdown|mkd|txt))?$/i;
const README_MAX_BYTES = 1024 * 1024;

function newMenu(base: string, resolved: ResolvedRef): Html {
  const here = (kind: string) => repoUrl(base, kind, resolved.ref, resolved.path);
  return html`<details class="menu"><summary class="button small secondary">New…</summary><ul class="menu-list">
<li><a href="${here('new')}">New file</a></li>
<li><a href="${here('upload')}">Upload file</a></li>
<li><a href="${here('new_dir')}">New directory</a></li>
<li><a href="${base}/-/branches/new?ref=${encodeURIComponent(resolved.ref)}">New branch</a></li>
<li><a href="${base}/-/tags/new?ref=${encodeURIComponent(resolved.ref)}">New tag</a></li>
</ul></details>`;
}

async function readmeOf(context: PageContext, access: ProjectAccess, resolved: ResolvedRef, entries: TreeEntry[]): Promise<Html> {
  const entry = entries.filter((candidate) => candidate.type === 'blob' && README.test(baseName(candidate.path))).sort((a, b) => (/\.(md|markdown|mdown|mkd)$/i.test(a.path) ? -1 : /\.(md|markdown|mdown|mkd)$/i.test(b.path) ? 1 : 0))[0];
  if (!entry) return html``;
  const blob = await readObject(resolved.repoPath, entry.id);
  if (!blob || blob.content.length > README_MAX_BYTES || isBinary(blob.content)) return html``;
  const text = blob.content.toString('utf8');
  const base = `/${access.project.full_path}`;
  const body = /\.(md|markdown|mdown|mkd)$/i.test(entry.path)
    ? html`<div class="markdown markdown-file">${raw(await renderGitlabMarkdown(context.deps, text, { project: access, relativeLinks: relativeLinksFor(base, resolved.ref, entry.path) }))}</div>`
    : html`<pre>${text}</pre>`;
  return html`<section class="file-holder readme" aria-labelledby="readme-title"><div class="file-header"><h2 class="file-title" id="readme-title"><a href="${repoUrl(base, 'blob', resolved.ref, entry.path)}">${baseName(entry.path)}</a></h2></div>${body}</section>`;
}

function lastCommitBox(base: string, commit: CommitObject | undefined, authors: Awaited<ReturnType<typeof findAuthors>>, nowMs: number): Html {
  if (!commit) return html``;
  return html`<div class="commit-list last-commit"><ul class="commit-list"><li>${avatarOf(authors, commit.author)}<div class="commit-main"><a class="commit-title" href="${base}/-/commit/${commit.id}">${commitTitle(commit)}</a><br><span class="muted">${authorName(authors, commit.author)} authored ${timeElement(commit.author.seconds, nowMs)}</span></div><a href="${base}/-/commit/${commit.id}"><code class="sha">${commit.id.slice(0, 8)}</code></a></li></ul></div>`;
}

/** The entries' rows, the last commit of each filled in when known (`last` null: not computed yet). */
function entryRows(base: string, resolved: ResolvedRef, entries: TreeEntry[], last: TreeLastCommits | null, commits: Map<string, CommitObject>, now: number): string {
  const parent = resolved.path.includes('/') ? resolved.path.slice(0, resolved.path.lastIndexOf('/')) : '';
  const rows = entries.map((entry) => {
    const name = baseName(entry.path);
    const changed = last ? commits.get(last.byEntry.get(name) ?? '') : undefined;
    const link =
      entry.type === 'commit'
        ? html`<span class="submodule">${name} @ <code>${entry.id.slice(0, 8)}</code></span>`
        : html`<a href="${repoUrl(base, entry.type === 'tree' ? 'tree' : 'blob', resolved.ref, entry.path)}">${entry.type === 'tree' ? html`<span aria-hidden="true">📁 </span>` : ''}${name}${entry.type === 'tree' ? '/' : ''}</a>`;
    return html`<tr data-entry="${entry.path}"${changed ? html` data-last-commit="${changed.id}"` : ''}><td>${link}</td><td class="last-commit">${changed ? html`<a href="${base}/-/commit/${changed.id}">${commitTitle(changed)}</a>` : ''}</td><td class="when">${changed ? timeElement(changed.committer.seconds, now) : ''}</td></tr>`;
  });
  return html`${resolved.path ? html`<tr><td><a href="${repoUrl(base, 'tree', resolved.ref, parent)}" >..<span class="visually-hidden"> (parent folder)</span></a></td><td></td><td></td></tr>` : ''}${rows}`.toString();
}

/** The table's body with every entry's last commit (the answer kept, joined while walked, or walked now). */
async function filledBody(context: PageContext, access: ProjectAccess, resolved: ResolvedRef, entries: TreeEntry[]): Promise<{ body: Html; last: TreeLastCommits; commits: Map<string, CommitObject> }> {
  const base = `/${access.project.full_path}`;
  const names = entries.map((entry) => baseName(entry.path));
  const last = await lastCommitsAt(context.deps, Number(access.project.id), resolved.repoPath, resolved.commit.id, resolved.path, names);
  const commits = await readCommits(resolved.repoPath, [...last.byEntry.values(), ...(last.latest ? [last.latest] : [])]);
  return { body: raw(`<tbody id="tree-entries">${entryRows(base, resolved, entries, last, commits, context.deps.clock.now())}</tbody>`), last, commits };
}

/** A folder's entries at the resolved commit, folders first; null when the path is no folder there. */
async function entriesOf(resolved: ResolvedRef): Promise<TreeEntry[] | null> {
  const listed = await listTree(resolved.repoPath, resolved.commit.id, resolved.path, false);
  return listed ? treesFirst(listed) : null;
}

/**
 * `?last_commits=<sha>`: the table's body with the last commit of every entry at that commit, which
 * replaces the page's body (GitLab's tree fetches its `logs_tree` the same way, after the page).
 */
async function lastCommitsFragment(context: PageContext, access: ProjectAccess, resolved: ResolvedRef, sha: string) {
  const commit = /^[0-9a-f]{40}$/.test(sha) ? await findCommit(resolved.repoPath, sha) : null;
  if (!commit) throw new NotFoundError('Commit');
  const at = { ...resolved, commit };
  const entries = await entriesOf(at);
  if (!entries) throw new NotFoundError('Tree');
  return fragment((await filledBody(context, access, at, entries)).body);
}

export async function renderTree(context: PageContext, access: ProjectAccess) {
  let resolved: ResolvedRef;
  try {
    resolved = await resolveRef(context.deps, access, context.match.rest);
  } catch (error) {
    // The sidebar links the default branch before anything was pushed: say the repository is empty.
    if (error instanceof NotFoundError && context.match.rest === access.project.default_branch && isEmptyRepository(await repositoryRefs(await readableRepository(context.deps, access.project)))) return emptyRepository(context, access);
    throw error;
  }
  if (context.query.last_commits !== undefined) return lastCommitsFragment(context, access, resolved, context.query.last_commits);
  const base = `/${access.project.full_path}`;
  const { repoPath, commit, path } = resolved;
  const projectId = Number(access.project.id);
  const entries = await entriesOf(resolved);
  if (!entries) {
    // A file's address under /tree/ shows the file, as GitLab redirects it.
    const entry = path ? await entryAt(repoPath, commit.id, path) : null;
    if (entry?.type === 'blob') return redirect(repoUrl(base, 'blob', resolved.ref, path), null, 302);
    throw new NotFoundError('Tree');
  }
  // Kept: the page shows every entry's last commit. Not yet: the page answers with the entries at once
  // and the walk starts; the table's body is then replaced by `?last_commits=` (htmx, on load), and
  // without JavaScript a reload shows what the walk kept meanwhile.
  const kept = await keptTree(context.deps, projectId, commit.id, path);
  let tbody: Html;
  let latestId: string | null;
  let commits: Map<string, CommitObject>;
  if (kept) {
    ({ body: tbody, commits } = await filledBody(context, access, resolved, entries));
    latestId = kept.latest;
  } else {
    // The walk starts once this page is on its way: git's log and the page share a core otherwise.
    const names = entries.map((entry) => baseName(entry.path));
    setImmediate(() => startLastCommits(context.deps, projectId, repoPath, commit.id, path, names));
    // The folder's own last commit: the commit itself at the root, else one `rev-list -1`.
    latestId = path === '' ? commit.id : await lastCommitFor(repoPath, commit.id, path);
    commits = latestId ? await readCommits(repoPath, [latestId]) : new Map();
    const pending = html`<tr class="pending"><td colspan="3"><span class="muted">The last commit of each entry is being computed. <a href="${repoUrl(base, 'tree', resolved.ref, path)}">Reload the page</a> to see it.</span></td></tr>`;
    tbody = raw(`<tbody id="tree-entries" hx-get="${escapeHtml(`${repoUrl(base, 'tree', resolved.ref, path)}?last_commits=${commit.id}`)}" hx-trigger="load" hx-swap="outerHTML">${pending.toString()}${entryRows(base, resolved, entries, null, commits, context.deps.clock.now())}</tbody>`);
  }
  const latest = latestId ? commits.get(latestId) : undefined;
  const [authors, readme] = await Promise.all([findAuthors(context.deps, latest ? [latest.author] : []), readmeOf(context, access, resolved, entries)]);
  const now = context.deps.clock.now();
  const mayPush = resolved.kind === 'branch' && canOnProject(access, 'push_code');
  const actions = html`<span class="ref-actions"><a class="button small secondary" href="${repoUrl(base, 'find_file', resolved.ref)}">Find file</a> <a class="button small secondary" href="${repoUrl(base, 'commits', resolved.ref, path)}">History</a> ${archiveLinks(access, resolved.ref, path)} ${mayPush ? newMenu(base, resolved) : ''}</span>`;
  const body = html`
${refBar({ access, resolved, destination: 'tree', leaf: 'tree', actions })}
${lastCommitBox(base, latest, authors, now)}
<div class="code-scroll"><table id="tree" class="tree-table"><thead><tr><th scope="col">Name</th><th scope="col">Last commit</th><th scope="col">Last update</th></tr></thead>${tbody}</table></div>
${entries.length === 0 ? html`<p class="empty">This directory is empty.</p>` : ''}
${readme}`;
  return page({ title: `${path || resolved.ref} · Files · ${access.project.name}`, heading: html`<h1>Files</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}

function emptyRepository(context: PageContext, access: ProjectAccess) {
  const cloneUrl = `${context.deps.config.baseUrl}/${access.project.full_path}.git`;
  const body = html`<p class="empty" id="empty-repository">The repository is empty. Push a branch to it: <code>git push ${cloneUrl} HEAD:${access.project.default_branch}</code></p>`;
  return page({ title: `Files · ${access.project.name}`, heading: html`<h1>Files</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
