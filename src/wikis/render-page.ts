// A page as HTML for a reader (the API's render_html and the page view): Markdown rendered as every
// Kiln page renders it, with the wiki's links — `[Deploy](deploy)` in `ops/home` leads to the page
// `ops/deploy`, an image `uploads/…/dk.png` to the wiki's file — and the other formats shown as text.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { escapeHtml } from '../platform/web/html.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { splitFrontMatter } from './front-matter.js';
import type { WikiPage } from './finder.js';

export function wikiRoot(access: ProjectAccess): string {
  return `/${access.project.full_path}/-/wikis`;
}

export async function renderPage(deps: Deps, access: ProjectAccess, page: Pick<WikiPage, 'slug' | 'format' | 'content'>): Promise<string> {
  const { body } = splitFrontMatter(page.content);
  if (page.format !== 'markdown') return `<pre class="wiki-text">${escapeHtml(body)}</pre>`;
  const directory = page.slug.includes('/') ? page.slug.slice(0, page.slug.lastIndexOf('/')) : '';
  const root = wikiRoot(access);
  return renderGitlabMarkdown(deps, body, { project: access, relativeLinks: { blobBase: root, rawBase: root, directory } });
}
