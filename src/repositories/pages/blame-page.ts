// GET /<project>/-/blame/<ref>/<path> (GitLab's blame page): each run of lines beside the commit
// that last changed them (author, title, how long ago, a bar coloured by age, from newest to oldest
// commit of the file), and the lines highlighted (kept by the file's content, as on the blob page).
// One `git blame --porcelain` and one object read. A file of more than 1,000 lines is shown a page of
// 1,000 lines at a time, as GitLab does (`?page=N`, `?no_pagination=true` for all of it): the blame
// is of the whole file (kept by commit), the page's rows are what a view renders.
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
import { lineMarkup, linesOf, storedLineMarkup, type MarkupStore } from './file-lines.js';
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

/** Lines a blame page shows (GitLab's Projects::BlameService::PER_PAGE); `?no_pagination=true` shows them all. */
export const BLAME_PER_PAGE = 1000;

/** Pure: the page asked for, as GitLab reads it: 1 when absent, not a number, under 1 or past the last. */
export function blamePage(value: string | undefined, lineCount: number): number {
  const page = /^\d{1,9}$/.test(value ?? '') ? Number(value) : 1;
  return page < 1 || (page - 1) * BLAME_PER_PAGE >= lineCount ? 1 : page;
}

/** Lines highlighted past the last one shown and not used: a construct read ahead across the cut colours the last lines as in the whole file. */
const SHOWN_MARGIN = 20;

/**
 * The markup of lines 1 … `to`: the whole file's when it is kept (the blob page or the push job
 * highlighted it), else a highlighting of those lines alone (highlight.js reads left to right, so
 * they come out as in the whole file), not kept. A cold blame of the first 1,000 lines of a 5,000-line
 * file then highlights a fifth of it beside git's blame on the same core, not all of it.
 */
export async function shownMarkup(store: MarkupStore, path: string, text: string, to: number): Promise<string[]> {
  const lines = linesOf(text);
  if (to + SHOWN_MARGIN >= lines.length) return storedLineMarkup(store, path, text);
  const kept = await store.read().catch(() => null);
  if (kept && kept.length === lines.length) return kept;
  return (await lineMarkup(path, `${lines.slice(0, to + SHOWN_MARGIN).join('\n')}\n`)).slice(0, to);
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
  // The page's lines are the blob's (blame names the same lines): which page is shown is known before git answers.
  const text = content.toString('utf8');
  const lineCount = linesOf(text).length;
  const whole = context.query.no_pagination === 'true' || lineCount <= BLAME_PER_PAGE;
  const pageNumber = whole ? 1 : blamePage(context.query.page, lineCount);
  const from = whole ? 1 : (pageNumber - 1) * BLAME_PER_PAGE + 1;
  const to = whole ? lineCount : Math.min(pageNumber * BLAME_PER_PAGE, lineCount);
  const [blame, markup] = await Promise.all([blamed(), shownMarkup(highlightStore(context.deps, Number(access.project.id), file.entry.id, resolved.path), resolved.path, text, to)]);
  if (blame === null) throw new NotFoundError('Blame');
  const { groups, commits } = blame;
  const times = [...commits.values()].map((commit) => commit.author.seconds);
  const newest = Math.max(...times);
  const oldest = Math.min(...times);
  const now = Math.floor(context.deps.clock.now() / 1000);
  let rows = '';
  let end = 0;
  for (const group of groups) {
    const start = end + 1;
    end += group.lines;
    if (end < from || start > to) continue;
    // A run that begins on an earlier page starts this one's first row.
    const first = Math.max(start, from);
    const last = Math.min(end, to);
    const commit = commits.get(group.commitId);
    for (let number = first; number <= last; number += 1) {
      const cell =
        number === first && commit
          ? `<td class="blame-commit" rowspan="${last - first + 1}"><span class="age age-${ageBucket(commit.author.seconds, newest, oldest)}" aria-hidden="true"></span><a href="${base}/-/commit/${commit.id}">${escapeHtml(commitTitle(commit))}</a><br><span class="muted">${escapeHtml(commit.author.name)} · <time title="${exactTime(commit.author.seconds)}">${timeAgo(commit.author.seconds, now)}</time> · <code>${commit.id.slice(0, 8)}</code></span></td>`
          : '';
      rows += `<tr id="L${number}"${number === first ? ' class="blame-start"' : ''}>${cell}<td class="num"><a href="#L${number}" data-line-number="${number}">${number}</a></td><td class="line">${markup[number - 1] ?? ''}</td></tr>`;
    }
  }
  const here = repoUrl(base, 'blame', resolved.ref, resolved.path);
  const pages = Math.ceil(lineCount / BLAME_PER_PAGE);
  const pagination = whole
    ? ''
    : html`<nav class="pagination" aria-label="Blame pages">${pageNumber > 1 ? html`<a href="${here}?page=${pageNumber - 1}" rel="prev">Previous</a>` : ''}<span>Lines ${from}–${to} of ${lineCount} (page ${pageNumber} of ${pages})</span>${pageNumber < pages ? html`<a href="${here}?page=${pageNumber + 1}" rel="next">Next</a>` : ''}<a href="${here}?no_pagination=true">Show full blame</a></nav>`;
  // The table says how many lines a page holds: kiln.js opens the page of a line anchor past this one (`#L2500`).
  const paged = whole ? '' : ` data-lines-per-page="${BLAME_PER_PAGE}"`;
  const body = html`
${refBar({ access, resolved, destination: 'blame', leaf: 'blame', actions: html`<span class="ref-actions"><a class="button small secondary" href="${repoUrl(base, 'blob', resolved.ref, resolved.path)}">Normal view</a> <a class="button small secondary" href="${repoUrl(base, 'commits', resolved.ref, resolved.path)}">History</a></span>` })}
<section class="file-holder" aria-label="Blame of ${resolved.path}">
<div class="file-header"><span class="file-title">${baseName(resolved.path)}</span><span class="muted">${groups.length} ${groups.length === 1 ? 'change' : 'changes'} by ${commits.size} ${commits.size === 1 ? 'commit' : 'commits'}</span></div>
${content.length === 0 ? html`<p class="empty">This file is empty.</p>` : raw(`<div class="code-scroll"><table class="code blob blame-table"${paged} aria-label="Blame of ${escapeHtml(resolved.path)}"><tbody>${rows}</tbody></table></div>`)}
</section>
${pagination}`;
  return page({ title: `Blame · ${resolved.path} · ${resolved.ref} · ${access.project.name}`, heading: html`<h1>Blame <code>${baseName(resolved.path)}</code></h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
