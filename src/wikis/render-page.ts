// A page as HTML for a reader (the API's render_html and the page view): Markdown rendered as every
// Kiln page renders it, with the wiki's links — `[Deploy](deploy)` in `ops/home` leads to the page
// `ops/deploy`, an image `uploads/…/dk.png` to the wiki's file —, AsciiDoc rendered as AsciiDoc files
// are (markdown/markup.ts) with the same links, and RDoc and Org shown as text.
// A project's wiki resolves references in its project; a group's has no project to resolve them in.
import type { Deps } from '../platform/deps.js';
import { escapeHtml } from '../platform/web/html.js';
import { renderMarkup } from '../markdown/api.js';
import { splitFrontMatter } from './front-matter.js';
import type { WikiPage } from './finder.js';
import type { WikiScope } from './wiki-scope.js';

export async function renderPage(deps: Deps, scope: Pick<WikiScope, 'root' | 'project'>, page: Pick<WikiPage, 'slug' | 'format' | 'content'>): Promise<string> {
  const { body } = splitFrontMatter(page.content);
  if (page.format !== 'markdown' && page.format !== 'asciidoc') return `<pre class="wiki-text">${escapeHtml(body)}</pre>`;
  const directory = page.slug.includes('/') ? page.slug.slice(0, page.slug.lastIndexOf('/')) : '';
  return renderMarkup(deps, page.format, body, { ...(scope.project ? { project: scope.project } : {}), relativeLinks: { blobBase: scope.root, rawBase: scope.root, directory } });
}
