// One file of the repository at a ref (GitLab's blob page): Markdown rendered, other text escaped,
// binary and huge files named but not shown.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, raw } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { findFile, isBinary } from '../repository-api/pages-api.js';
import { pathCrumbs, splitRefAndPath } from './shared.js';

export const BLOB_PATTERN = /^(?<path>.+?)\/-\/blob\/(?<rest>.+)$/;
const SHOWN_BYTES = 1024 * 1024;
const MARKDOWN = /\.(md|markdown|mdown|mkd)$/i;

export async function renderBlob(context: PageContext, access: ProjectAccess) {
  const { ref, path } = await splitRefAndPath(context.deps, access, context.match.rest);
  const file = await findFile(context.deps, access, path, ref);
  const base = `/${access.project.full_path}`;
  const size = file.content.length;
  let content;
  if (isBinary(file.content)) content = html`<p class="empty">Binary file (${size} bytes), not shown.</p>`;
  else if (size > SHOWN_BYTES) content = html`<p class="empty">This file is too large to show (${size} bytes).</p>`;
  else if (MARKDOWN.test(path)) content = html`<div class="markdown">${raw(await renderGitlabMarkdown(context.deps, file.content.toString('utf8'), { project: access }))}</div>`;
  else content = html`<pre class="blob"><code>${file.content.toString('utf8')}</code></pre>`;
  const body = html`
${pathCrumbs(base, 'blob', ref, path)}
<p class="muted">${size} bytes · last changed in <a href="${base}/-/commit/${file.commit.id}"><code>${file.commit.id.slice(0, 8)}</code></a></p>
${content}`;
  return page({ title: `${path} · ${ref} · ${access.project.name}`, heading: html`<h1><code>${path.slice(path.lastIndexOf('/') + 1)}</code></h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
