// Markup files as GitLab renders them by their extension: Markdown, and AsciiDoc (`.adoc`,
// `.asciidoc`, `.asc`) through Asciidoctor (render-asciidoc.ts). Org mode and RDoc have no maintained
// renderer for Node here and are shown as text (docs/markup.md).
import type { Deps } from '../platform/deps.js';
import { renderBounded } from './bounded-render.js';
import { renderGitlabMarkdown, type ViewerRenderOptions } from './render-gitlab-markdown.js';

export type MarkupFormat = 'markdown' | 'asciidoc';

const MARKDOWN = /\.(md|markdown|mdown|mkd)$/i;
const ASCIIDOC = /\.(adoc|asciidoc|asc)$/i;

/** The markup a file's name says, or null for a file shown as text. */
export function markupOf(path: string): MarkupFormat | null {
  if (MARKDOWN.test(path)) return 'markdown';
  if (ASCIIDOC.test(path)) return 'asciidoc';
  return null;
}

/**
 * `text` rendered as `format` for a viewer: Markdown with the viewer's references, AsciiDoc with its
 * links resolved in the repository (no GitLab references: a file's text is no comment).
 */
export async function renderMarkup(deps: Deps, format: MarkupFormat, text: string, options: ViewerRenderOptions = {}): Promise<string> {
  if (format === 'markdown') return renderGitlabMarkdown(deps, text, options);
  return renderBounded(text, { format, baseUrl: deps.config.baseUrl, relativeLinks: options.relativeLinks }, { budgetMs: deps.config.markdownRenderMs, workers: deps.config.markdownWorkers });
}
