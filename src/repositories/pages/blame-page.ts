// GET /<project>/-/blame/<ref>/<path> (GitLab's blame page): each run of lines beside the commit
// that last changed them (author, title, how long ago, a bar coloured by age, from newest to oldest
// commit of the file), and the lines highlighted (kept by the file's content, as on the blob page).
// One `git blame --porcelain` and one object read.
// A blame at a commit never changes (the commit names the file's whole history): its runs of lines are
// kept by project, commit and path (repository-api/page-caches.ts; a push to the default branch has
// the files it changed blamed in the background), read only after the page's permission check and
// the file's own look-up in the project's repository.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { html, raw, escapeHtml } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { isBinary } from '../repository-api/files-finder.js';
import { blameAt, highlightStore } from '../repository-api/page-caches.js';
import { readCommits } from '../repository-api/object-reader.js';
import { baseName } from '../repository-api/tree-entries.js';
import { resolveFile } from './resolve-file.js';
import { refBar } from './ref-bar.js';
import { storedLineMarkup } from './file-lines.js';
import { MAX_SHOWN_BYTES } from './file-kinds.js';
import { timeAgo, exactTime } from './time.js';
import { commitTitle } from './shared.js';
import { repoUrl } from './urls.js';

export const BLAME_PATTERN = /^(?<path>.+?)\/-\/blame\/(?<rest>.+)$/;
const AGE_BUCKETS = 6;
/** Pure: 0 (newest) … 5 (oldest) for a time between the file's newest and oldest commit. */
export function ageBucket(seconds: number, newest: number, oldest: number): number {
  if (newest <= oldest) return 0;
  return Math.min(AGE_BUCKETS - 1, Math.floor(((newest - seconds) / (newest - oldest)) * AGE_BUCKETS));
}

export async function renderBlame(context: PageContext, access: ProjectAccess) {
  const file = await resolveFile(context.deps, access, context.match.rest);
  const base = `/${access.project.full_path}`;
  if ('folder' in file) return redirect(repoUrl(base, 'tree', file.folder.ref, file.folder.path), null, 302);
  const { resolved, content } = file;
  if (isBinary(content) || content.length > MAX_SHOWN_BYTES) throw new NotFoundError('Blame');
  // Blame (a git process) and highlighting (the highlighter's thread) side by side: neither waits for the other.
  const blamed = async () => {
    const found = content.length === 0 ? [] : await blameAt(context.deps, Number(access.project.id), resolved.repoPath, resolved.commit.id, resolved.path);
    return found && { groups: found, commits: await readCommits(resolved.repoPath, found.map((group) => group.commitId)) };
  };
  const [blame, markup] = await Promise.all([blamed(), storedLineMarkup(highlightStore(context.deps, Number(access.project.id), file.entry.id, resolved.path), resolved.path, content.toString('utf8'))]);
  if (blame === null) throw new NotFoundError('Blame');
  const { groups, commits } = blame;
  const times = [...commits.values()].map((commit) => commit.author.seconds);
  const newest = Math.max(...times);
  const oldest = Math.min(...times);
  const now = Math.floor(context.deps.clock.now() / 1000);
  let rows = '';
  let number = 0;
  for (const group of groups) {
    const commit = commits.get(group.commitId);
    for (let index = 0; index < group.lines; index += 1) {
      number += 1;
      const cell =
        index === 0 && commit
          ? `<td class="blame-commit" rowspan="${group.lines}"><span class="age age-${ageBucket(commit.author.seconds, newest, oldest)}" aria-hidden="true"></span><a href="${base}/-/commit/${commit.id}">${escapeHtml(commitTitle(commit))}</a><br><span class="muted">${escapeHtml(commit.author.name)} · <time title="${exactTime(commit.author.seconds)}">${timeAgo(commit.author.seconds, now)}</time> · <code>${commit.id.slice(0, 8)}</code></span></td>`
          : '';
      rows += `<tr id="L${number}"${index === 0 ? ' class="blame-start"' : ''}>${cell}<td class="num"><a href="#L${number}" data-line-number="${number}">${number}</a></td><td class="line">${markup[number - 1] ?? ''}</td></tr>`;
    }
  }
  const body = html`
${refBar({ access, resolved, destination: 'blame', leaf: 'blame', actions: html`<span class="ref-actions"><a class="button small secondary" href="${repoUrl(base, 'blob', resolved.ref, resolved.path)}">Normal view</a> <a class="button small secondary" href="${repoUrl(base, 'commits', resolved.ref, resolved.path)}">History</a></span>` })}
<section class="file-holder" aria-label="Blame of ${resolved.path}">
<div class="file-header"><span class="file-title">${baseName(resolved.path)}</span><span class="muted">${groups.length} ${groups.length === 1 ? 'change' : 'changes'} by ${commits.size} ${commits.size === 1 ? 'commit' : 'commits'}</span></div>
${content.length === 0 ? html`<p class="empty">This file is empty.</p>` : raw(`<div class="code-scroll"><table class="code blob blame-table" aria-label="Blame of ${escapeHtml(resolved.path)}"><tbody>${rows}</tbody></table></div>`)}
</section>`;
  return page({ title: `Blame · ${resolved.path} · ${resolved.ref} · ${access.project.name}`, heading: html`<h1>Blame <code>${baseName(resolved.path)}</code></h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
