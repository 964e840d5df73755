// GET /<project>/-/diff_lines/<sha>/<path>: lines of a file at a commit as unchanged diff rows, for
// the diff view's expanders (diff-view/expander.ts), which htmx swaps in place of the expander.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { fragment } from '../../platform/web/page.js';
import { NotFoundError } from '../../platform/errors.js';
import { highlightText } from '../../platform/web/highlight/highlighter.js';
import { renderExpandedLines } from '../diff-view/index.js';
import { findFile, isBinary } from '../repository-api/pages-api.js';
import { isValidFilePath } from '../repository-api/tree-entries.js';

export const DIFF_LINES_PATTERN = /^(?<path>.+?)\/-\/diff_lines\/(?<sha>[0-9a-f]{40})\/(?<file>.+)$/;

function lineNumber(value: string | undefined, allowEnd: boolean): number | null | undefined {
  if (allowEnd && value === 'end') return null;
  if (value === undefined || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value);
}

export async function renderDiffLines(context: PageContext, access: ProjectAccess) {
  const { query } = context;
  const since = lineNumber(query.since, false);
  const to = lineNumber(query.to, true);
  const gapFrom = lineNumber(query.gap_from, false);
  const gapTo = lineNumber(query.gap_to, true);
  const offset = /^-?\d{1,9}$/.test(query.offset ?? '') ? Number(query.offset) : undefined;
  const prefix = query.prefix ?? '';
  if (since === undefined || since === null || to === undefined || gapFrom === undefined || gapFrom === null || gapTo === undefined || offset === undefined || !/^[a-z0-9-]{0,32}$/.test(prefix)) {
    throw new NotFoundError('Lines');
  }
  const path = context.match.file;
  if (!isValidFilePath(path)) throw new NotFoundError('File');
  const file = await findFile(context.deps, access, path, context.match.sha);
  if (isBinary(file.content)) throw new NotFoundError('File');
  const text = file.content.toString('utf8');
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  const highlighted = await highlightText({ path, text });
  return fragment(
    renderExpandedLines(
      { projectPath: access.project.full_path, newSha: file.commit.id, newPath: path, mode: query.view === 'parallel' ? 'parallel' : 'inline', idPrefix: prefix, gap: { from: gapFrom, to: gapTo, offset }, since, to },
      lines,
      highlighted,
    ),
  );
}
