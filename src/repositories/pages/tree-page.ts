// A directory of the repository at a ref (GitLab's tree page): the ref switcher and the path, the
// last commit that changed the directory, every entry (folders first) with the last commit that
// changed it and when (one `git log` walk for the whole directory: last-commits.ts, kept by commit,
// most often computed after the push that made the commit: page-caches.ts), the download
// and "new" menus, and the directory's README rendered below.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { html, raw, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { listTree, entryAt } from '../repository-api/git-reads.js';
import { treesFirst } from '../repository-api/tree-finder.js';
import { readCommits, readObject } from '../repository-api/object-reader.js';
import { lastCommitsAt } from '../repository-api/page-caches.js';
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

export async function renderTree(context: PageContext, access: ProjectAccess) {
  let resolved: ResolvedRef;
  try {
    resolved = await resolveRef(context.deps, access, context.match.rest);
  } catch (error) {
    // The sidebar links the default branch before anything was pushed: say the repository is empty.
    if (error instanceof NotFoundError && context.match.rest === access.project.default_branch && isEmptyRepository(await repositoryRefs(await readableRepository(context.deps, access.project)))) return emptyRepository(context, access);
    throw error;
  }
  const base = `/${access.project.full_path}`;
  const { repoPath, commit, path } = resolved;
  const listed = await listTree(repoPath, commit.id, path, false);
  if (!listed) {
    // A file's address under /tree/ shows the file, as GitLab redirects it.
    const entry = path ? await entryAt(repoPath, commit.id, path) : null;
    if (entry?.type === 'blob') return redirect(repoUrl(base, 'blob', resolved.ref, path), null, 302);
    throw new NotFoundError('Tree');
  }
  const entries = treesFirst(listed);
  const names = entries.map((entry) => baseName(entry.path));
  const last = await lastCommitsAt(context.deps, Number(access.project.id), repoPath, commit.id, path, names);
  const commits = await readCommits(repoPath, [...last.byEntry.values(), ...(last.latest ? [last.latest] : [])]);
  const latest = last.latest ? commits.get(last.latest) : undefined;
  const [authors, readme] = await Promise.all([findAuthors(context.deps, latest ? [latest.author] : []), readmeOf(context, access, resolved, entries)]);
  const now = context.deps.clock.now();
  const mayPush = resolved.kind === 'branch' && canOnProject(access, 'push_code');
  const actions = html`<span class="ref-actions"><a class="button small secondary" href="${repoUrl(base, 'find_file', resolved.ref)}">Find file</a> <a class="button small secondary" href="${repoUrl(base, 'commits', resolved.ref, path)}">History</a> ${archiveLinks(access, resolved.ref, path)} ${mayPush ? newMenu(base, resolved) : ''}</span>`;
  const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const body = html`
${refBar({ access, resolved, destination: 'tree', leaf: 'tree', actions })}
${lastCommitBox(base, latest, authors, now)}
<div class="code-scroll"><table id="tree" class="tree-table"><thead><tr><th scope="col">Name</th><th scope="col">Last commit</th><th scope="col">Last update</th></tr></thead><tbody>
${path ? html`<tr><td><a href="${repoUrl(base, 'tree', resolved.ref, parent)}" >..<span class="visually-hidden"> (parent folder)</span></a></td><td></td><td></td></tr>` : ''}
${entries.map((entry) => {
  const name = baseName(entry.path);
  const changed = commits.get(last.byEntry.get(name) ?? '');
  const link =
    entry.type === 'commit'
      ? html`<span class="submodule">${name} @ <code>${entry.id.slice(0, 8)}</code></span>`
      : html`<a href="${repoUrl(base, entry.type === 'tree' ? 'tree' : 'blob', resolved.ref, entry.path)}">${entry.type === 'tree' ? html`<span aria-hidden="true">📁 </span>` : ''}${name}${entry.type === 'tree' ? '/' : ''}</a>`;
  return html`<tr data-entry="${entry.path}"${changed ? html` data-last-commit="${changed.id}"` : ''}><td>${link}</td><td class="last-commit">${changed ? html`<a href="${base}/-/commit/${changed.id}">${commitTitle(changed)}</a>` : ''}</td><td class="when">${changed ? timeElement(changed.committer.seconds, now) : ''}</td></tr>`;
})}
</tbody></table></div>
${entries.length === 0 ? html`<p class="empty">This directory is empty.</p>` : ''}
${readme}`;
  return page({ title: `${path || resolved.ref} · Files · ${access.project.name}`, heading: html`<h1>Files</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}

function emptyRepository(context: PageContext, access: ProjectAccess) {
  const cloneUrl = `${context.deps.config.baseUrl}/${access.project.full_path}.git`;
  const body = html`<p class="empty" id="empty-repository">The repository is empty. Push a branch to it: <code>git push ${cloneUrl} HEAD:${access.project.default_branch}</code></p>`;
  return page({ title: `Files · ${access.project.name}`, heading: html`<h1>Files</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
