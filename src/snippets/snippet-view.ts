// How a snippet looks on its page and in lists: title, visibility, author, the description as
// Markdown, and each file as a numbered table highlighted by the repository pages' highlighter (a
// binary file as "Binary file" with a download).
import type { PageContext } from '../platform/web/page-route.js';
import { csrfField } from '../platform/web/page-route.js';
import { html, raw, type Html } from '../platform/web/html.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { lineMarkup, lineTable } from '../repositories/api.js';
import type { presentSnippets } from './entities.js';
import type { SnippetFileRow } from './finder.js';
import { isBinary } from './binary-files.js';

type Presented = Awaited<ReturnType<typeof presentSnippets>>[number];

const VISIBILITY_TEXT = { private: 'Private', internal: 'Internal', public: 'Public' } as const;

/** Path of a snippet's page relative to the site (its web_url without the base). */
export function snippetPath(context: PageContext, snippet: Presented): string {
  return snippet.web_url.slice(context.deps.config.baseUrl.length);
}

export function snippetList(context: PageContext, snippets: Presented[], empty: Html): Html {
  if (snippets.length === 0) return html`<div class="empty">${empty}</div>`;
  return html`<ul class="snippet-list">${snippets.map((snippet) => html`<li>
<a href="${snippetPath(context, snippet)}">${snippet.title}</a> <span class="badge">${VISIBILITY_TEXT[snippet.visibility]}</span>
<span class="muted">${snippet.files.length} ${snippet.files.length === 1 ? 'file' : 'files'} · by ${snippet.author?.name ?? 'someone'} · ${snippet.created_at?.slice(0, 10)}</span></li>`)}</ul>`;
}

export async function snippetArticle(context: PageContext, snippet: Presented, files: SnippetFileRow[], options: { editable: boolean; project: ProjectAccess | null }): Promise<Html> {
  const path = snippetPath(context, snippet);
  const description = snippet.description ? await renderGitlabMarkdown(context.deps, snippet.description, options.project ? { project: options.project } : {}) : '';
  const sections = [];
  for (const [index, file] of files.entries()) {
    const rawPath = snippet.files[index]?.raw_url.slice(context.deps.config.baseUrl.length);
    // A binary file is not shown as text: GitLab's "Binary file" with a download of its bytes.
    const shown = isBinary(file)
      ? html`<p class="snippet-binary">Binary file · <a href="${rawPath}" download="${file.path.split('/').pop()}">Download<span class="visually-hidden"> ${file.path}</span></a></p>`
      : lineTable(await lineMarkup(file.path, file.content), file.path);
    sections.push(html`<section class="snippet-file" aria-labelledby="snippet-file-${index}">
<h2 id="snippet-file-${index}" class="file-header"><span>${file.path}</span> <a class="button small secondary" href="${rawPath}">Raw<span class="visually-hidden"> ${file.path}</span></a></h2>
${shown}
</section>`);
  }
  return html`<article class="snippet" data-snippet="${snippet.id}">
<p class="muted"><span class="badge">${VISIBILITY_TEXT[snippet.visibility]}</span> Created ${snippet.created_at?.slice(0, 10)}${snippet.author ? html` by <a href="/${snippet.author.username}">${snippet.author.name}</a>` : ''}</p>
${description ? html`<div class="markdown">${raw(description)}</div>` : ''}
${options.editable ? html`<div class="actions"><a class="button secondary" href="${path}/edit">Edit</a> <form method="post" action="${path}/delete" class="inline" data-confirm="Delete the snippet ${snippet.title}?">${csrfField(context)}<button type="submit" class="danger">Delete</button></form></div>` : ''}
${sections}
</article>`;
}
