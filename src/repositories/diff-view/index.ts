// The one diff view of Kiln: the commit page, compare, and merge requests' Changes tab render diffs
// with it (exported through src/repositories/api.ts).
//
// Use:
//
//   const files = await diffBetween(repoPath, baseSha, headSha);          // FileDiff[] (git-reads.ts)
//   const body = await renderDiffView(files, {
//     projectPath: access.project.full_path,     // links: /<path>/-/blob/<sha>/<file>, expanders
//     oldSha: baseSha, newSha: headSha,
//     mode: diffModeOf(context.query),           // ?view=inline|parallel (GitLab's parameter)
//     modeUrl: (mode) => `${pageUrl}?view=${mode}`,
//     fileUrl: (file) => `…/diff_file?path=…`,   // optional: collapsed files load from here
//     rawDiffUrl: `…/<sha>.diff`,                // optional: offered when files were left out
//     comments: {                                // optional: the merge request's line comments
//       threadsFor: (position) => threadsByLineCode.get(position.lineCode) ?? null,
//       formUrl: (position) => `…/discussions/new?line_code=${position.lineCode}&…`,
//     },
//   });
//
// What it renders, per file: a <section class="diff-file" id="<prefix>file-<sha1(new path)>"> with
// a <details> (collapsible; open unless collapsed), the header (path, "old → new" for renames, mode
// changes, added/deleted/renamed badges, +additions −deletions, a link to the file at the new
// commit), and a table of the hunks: hunk headers, expanders that fetch hidden lines with htmx from
// GET /<project>/-/diff_lines/<new sha>/<path> (served by the repository pages), and one row per
// line (inline: old number, new number, code; side by side: old number, old code, new number, new
// code). Every line's anchor is its GitLab line code (`#<prefix><line code>`); line numbers link
// there. Code is highlighted per side of each file (highlight.js in a worker, platform/web/highlight).
//
// Limits (diff-limits.ts, GitLab's): a file over 200 KiB of patch is "too large" (header and a link
// only), over 20 KiB collapsed; past 100 files / 5,000 lines / 500 KB further files are collapsed
// (their body fetched from `fileUrl` when opened, or carried closed without one); past 1,000 files
// / 50,000 lines / 5 MB the rest is left out with a notice and the `rawDiffUrl` link.
//
// Line comments (options.ts, DiffComments): `threadsFor(position)` puts markup in a full-width row
// under any line (<tr class="slot" data-line-code=…>); `formUrl(position)` adds a "+" button on
// each line that GETs that URL with htmx and inserts the answer (one or more <tr>, 3 columns
// inline, 4 side by side) right after the line's row. A range: the reader clicks a line number,
// then shift-clicks another (kiln.js); the button's request then carries `line_range_start=<line
// code>` of the first line. `position` has what a GitLab diff note's position needs: old_path,
// new_path, old_line, new_line, the line type and the line code. Expanded context lines carry no
// comment buttons (the fragment that adds them does not know the page's hooks).
export { renderDiffView, renderDiffFileBody } from './render-diff-view.js';
export { renderExpandedLines, type ExpandRequest } from './expanded-lines.js';
export { parsePatch, patchStats, type DiffHunk, type DiffLine } from './parse-patch.js';
export { lineCode } from './line-code.js';
export { planDiff, DIFF_LIMITS } from './diff-limits.js';
export type { DiffViewOptions, DiffComments, DiffLinePosition, DiffMode } from './options.js';

/** `?view=parallel` (GitLab's parameter) or inline. */
export function diffModeOf(query: Record<string, string | undefined>): 'inline' | 'parallel' {
  return query.view === 'parallel' ? 'parallel' : 'inline';
}
