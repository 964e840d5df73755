// GET /<project>/-/blame/<ref>/<path> (GitLab's blame page): each run of lines beside the commit
// that last changed them (author, title, how long ago, a bar coloured by age, from newest to oldest
// commit of the file), and the lines highlighted (kept by the file's content, as on the blob page;
// on a cold view of a long file, a chunk with the page and the rest as they scroll into view).
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
import { fragment, page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { isBinary } from '../repository-api/files-finder.js';
import { blameAt } from '../repository-api/page-caches.js';
import { readCommits } from '../repository-api/object-reader.js';
import { baseName } from '../repository-api/tree-entries.js';
import { resolveFile } from './resolve-file.js';
import { refBar } from './ref-bar.js';
import { lineMarkup, linesOf, storedLineMarkup } from './file-lines.js';
import { CHUNK_LINES, chunkMarkup, highlightInBackground, projectFile, type WholeFile } from './blob-chunks.js';
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

/** Lines highlighted past the last one highlighted and not used: a construct read ahead across the cut colours the last lines as in the whole file. */
const SHOWN_MARGIN = 20;

export interface ShownMarkup {
  /** Markup of lines 1 … `to` (index 0 is line 1): highlighted up to `plainFrom - 1`, escaped text after. */
  markup: string[];
  /** The first line sent plain, to be highlighted as it scrolls into view (`to + 1`: none). */
  plainFrom: number;
}

/**
 * The markup of the page's lines `from` … `to`. The whole file's when it is kept (the blob page, a
 * chunk or the push job highlighted it); the whole file highlighted and kept when the page's first
 * chunk reaches its end. Otherwise the lines up to the end of the page's first chunk are highlighted
 * (highlight.js reads left to right, so they come out as in the whole file), the page's later lines
 * are sent plain, and the page then has the whole file highlighted off the event loop and kept: the
 * plain lines are swapped for its lines as they scroll into view (`?chunk=N`), as on the blob page. A cold blame of a
 * long file then highlights a chunk beside git's blame on the same core, not a thousand lines.
 */
export async function shownMarkup(file: WholeFile, from: number, to: number): Promise<ShownMarkup> {
  const lines = linesOf(file.text);
  const highlightTo = Math.min(to, from - 1 + CHUNK_LINES);
  if (highlightTo + SHOWN_MARGIN >= lines.length) return { markup: await storedLineMarkup(file.store, file.path, file.text), plainFrom: to + 1 };
  const kept = await file.store.read().catch(() => null);
  if (kept && kept.length === lines.length) return { markup: kept, plainFrom: to + 1 };
  const highlighted = (await lineMarkup(file.path, `${lines.slice(0, highlightTo + SHOWN_MARGIN).join('\n')}\n`)).slice(0, highlightTo);
  return { markup: [...highlighted, ...lines.slice(highlightTo, to).map((line) => escapeHtml(line))], plainFrom: highlightTo + 1 };
}

/** A line's code cell: a plain line is named (`LC<n>`) for its highlighted version to take its place. */
function lineCell(markup: string, number: number, plain: boolean): string {
  return plain ? `<td class="line"><span id="LC${number}">${markup}</span></td>` : `<td class="line">${markup}</td>`;
}

/** `?chunk=N`: chunk N's highlighted lines, each swapped by htmx for the plain line of the same name. */
async function chunkFragment(file: WholeFile, chunk: string) {
  const markup = /^\d{1,6}$/.test(chunk) ? await chunkMarkup(file, Number(chunk)) : null;
  if (!markup) throw new NotFoundError('Chunk');
  const first = Number(chunk) * CHUNK_LINES + 1;
  return fragment(raw(markup.map((line, index) => `<span id="LC${first + index}" hx-swap-oob="true">${line}</span>`).join('')));
}

export async function renderBlame(context: PageContext, access: ProjectAccess) {
  const file = await resolveFile(context.deps, access, context.match.rest);
  const base = `/${access.project.full_path}`;
  if ('folder' in file) return redirect(repoUrl(base, 'tree', file.folder.ref, file.folder.path), null, 302);
  const { resolved, content } = file;
  if (isBinary(content) || content.length > MAX_SHOWN_BYTES) throw new NotFoundError('Blame');
  const shown = projectFile(context.deps, Number(access.project.id), resolved.path, file.entry.id, content.toString('utf8'));
  if (context.query.chunk !== undefined) return chunkFragment(shown, context.query.chunk);
  // Blame (a git process) and highlighting (the highlighter's thread) side by side: neither waits for the other.
  const blamed = async () => {
    const found = content.length === 0 ? [] : await blameAt(context.deps, Number(access.project.id), resolved.repoPath, resolved.commit.id, resolved.path);
    return found && { groups: found, commits: await readCommits(resolved.repoPath, found.map((group) => group.commitId)) };
  };
  // The page's lines are the blob's (blame names the same lines): which page is shown is known before git answers.
  const lineCount = linesOf(shown.text).length;
  const whole = context.query.no_pagination === 'true' || lineCount <= BLAME_PER_PAGE;
  const pageNumber = whole ? 1 : blamePage(context.query.page, lineCount);
  const from = whole ? 1 : (pageNumber - 1) * BLAME_PER_PAGE + 1;
  const to = whole ? lineCount : Math.min(pageNumber * BLAME_PER_PAGE, lineCount);
  const [blame, { markup, plainFrom }] = await Promise.all([blamed(), shownMarkup(shown, from, to)]);
  if (blame === null) throw new NotFoundError('Blame');
  // The plain lines' highlighting starts once git's blame is done, not beside it on the same core.
  if (plainFrom <= to) highlightInBackground(shown);
  const { groups, commits } = blame;
  const times = [...commits.values()].map((commit) => commit.author.seconds);
  const newest = Math.max(...times);
  const oldest = Math.min(...times);
  const now = Math.floor(context.deps.clock.now() / 1000);
  // The rows come in sections: the highlighted lines, then each plain chunk in a section of its own
  // that asks for its highlighted lines when it comes into view. A cell spans rows of one section only,
  // so a run of lines that crosses into the next section shows its commit again there.
  const sectionOf = (number: number) => (number < plainFrom ? -1 : Math.floor((number - 1) / CHUNK_LINES));
  const sections = new Map<number, string>();
  let end = 0;
  for (const group of groups) {
    const start = end + 1;
    end += group.lines;
    if (end < from || start > to) continue;
    // A run that begins on an earlier page starts this one's first row.
    const last = Math.min(end, to);
    const commit = commits.get(group.commitId);
    for (let first = Math.max(start, from); first <= last; ) {
      const section = sectionOf(first);
      const pieceEnd = section < 0 ? Math.min(last, plainFrom - 1) : Math.min(last, (section + 1) * CHUNK_LINES);
      let rows = sections.get(section) ?? '';
      for (let number = first; number <= pieceEnd; number += 1) {
        const cell =
          number === first && commit
            ? `<td class="blame-commit" rowspan="${pieceEnd - first + 1}"><span class="age age-${ageBucket(commit.author.seconds, newest, oldest)}" aria-hidden="true"></span><a href="${base}/-/commit/${commit.id}">${escapeHtml(commitTitle(commit))}</a><br><span class="muted">${escapeHtml(commit.author.name)} · <time title="${exactTime(commit.author.seconds)}">${timeAgo(commit.author.seconds, now)}</time> · <code>${commit.id.slice(0, 8)}</code></span></td>`
            : '';
        rows += `<tr id="L${number}"${number === first ? ' class="blame-start"' : ''}>${cell}<td class="num"><a href="#L${number}" data-line-number="${number}">${number}</a></td>${lineCell(markup[number - 1] ?? '', number, section >= 0)}</tr>`;
      }
      sections.set(section, rows);
      first = pieceEnd + 1;
    }
  }
  const chunkUrl = (n: number) => `${repoUrl(base, 'blame', resolved.commit.id, resolved.path)}?chunk=${n}`;
  const rows = [...sections].map(([section, sectionRows]) => (section < 0 ? `<tbody>${sectionRows}</tbody>` : `<tbody hx-get="${escapeHtml(chunkUrl(section))}" hx-trigger="intersect once" hx-swap="none">${sectionRows}</tbody>`)).join('');
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
${content.length === 0 ? html`<p class="empty">This file is empty.</p>` : raw(`<div class="code-scroll"><table class="code blob blame-table"${paged} aria-label="Blame of ${escapeHtml(resolved.path)}">${rows}</table></div>`)}
</section>
${pagination}`;
  return page({ title: `Blame · ${resolved.path} · ${resolved.ref} · ${access.project.name}`, heading: html`<h1>Blame <code>${baseName(resolved.path)}</code></h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
