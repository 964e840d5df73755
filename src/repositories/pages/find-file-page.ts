// GET /<project>/-/find_file/<ref> (GitLab's "find file", key `t`): every file of the ref matched
// as one types (htmx asks GET /<project>/-/files/<ref>?q=… for the list; without JavaScript the
// form does). A match is the typed letters in order, best first: in the name, then anywhere.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { fragment, page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { gitBytes } from '../git.js';
import { resolveRef, type ResolvedRef } from './resolve-ref.js';
import { refBar } from './ref-bar.js';
import { repoUrl } from './urls.js';

export const FIND_FILE_PATTERN = /^(?<path>.+?)\/-\/find_file\/(?<rest>.+)$/;
export const FILES_PATTERN = /^(?<path>.+?)\/-\/files\/(?<rest>.+)$/;
const SHOWN = 100;

/** Pure: a score for `path` against `query` (lower is better), or null when the letters are not in it in order. */
export function matchScore(path: string, query: string): number | null {
  if (query === '') return 0;
  const haystack = path.toLowerCase();
  const needle = query.toLowerCase();
  const name = haystack.slice(haystack.lastIndexOf('/') + 1);
  if (name.includes(needle)) return name.indexOf(needle);
  if (haystack.includes(needle)) return 1000 + haystack.indexOf(needle);
  let at = 0;
  let gaps = 0;
  for (const char of needle) {
    const found = haystack.indexOf(char, at);
    if (found < 0) return null;
    gaps += found - at;
    at = found + 1;
  }
  return 10_000 + gaps;
}

async function filesOfRef(resolved: ResolvedRef): Promise<string[]> {
  const output = await gitBytes(resolved.repoPath, ['ls-tree', '-r', '-z', '--name-only', '--full-tree', resolved.commit.id]);
  return output.toString('utf8').split('\0').filter((path) => path !== '');
}

function fileList(base: string, resolved: ResolvedRef, files: string[], query: string): Html {
  const matched = files
    .map((path) => ({ path, score: matchScore(path, query) }))
    .filter((entry): entry is { path: string; score: number } => entry.score !== null)
    .sort((a, b) => a.score - b.score || (a.path < b.path ? -1 : 1));
  return html`<ul class="file-matches">${matched.slice(0, SHOWN).map((entry) => html`<li><a href="${repoUrl(base, 'blob', resolved.ref, entry.path)}">${entry.path}</a></li>`)}</ul>
<p class="muted" role="status">${matched.length} ${matched.length === 1 ? 'file matches' : 'files match'}${matched.length > SHOWN ? html`; the first ${SHOWN} are shown` : ''}.</p>`;
}

export async function renderFindFile(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  const base = `/${access.project.full_path}`;
  const query = context.query.q ?? '';
  const files = await filesOfRef(resolved);
  const body = html`
${refBar({ access, resolved, destination: 'find_file', leaf: 'tree' })}
<form class="find-file" method="get" action="${repoUrl(base, 'find_file', resolved.ref)}" role="search">
<label for="find-file-input">Find a file in ${resolved.ref}</label>
<input type="search" id="find-file-input" name="q" value="${query}" autofocus autocomplete="off" hx-get="${repoUrl(base, 'files', resolved.ref)}" hx-trigger="input changed delay:150ms, search" hx-target="#file-results">
</form>
<div id="file-results">${fileList(base, resolved, files, query)}</div>`;
  return page({ title: `Find file · ${resolved.ref} · ${access.project.name}`, heading: html`<h1>Find file</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}

export async function renderFiles(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  return fragment(fileList(`/${access.project.full_path}`, resolved, await filesOfRef(resolved), (context.query.q ?? '').slice(0, 200)));
}
