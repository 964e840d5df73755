// One file at a ref (GitLab's blob page): the commit that last changed it (not the ref's head), its
// size and lines, the actions (edit and delete on a branch one may push to, raw, blame, history,
// permalink, download), and the file itself: highlighted lines with anchors, Markdown rendered
// (`?plain=1` for its source), images shown, binary and large files offered for download. A file
// stored with Git LFS shows its object (badge "Stored with Git LFS"), and its raw link serves it.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, raw, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { fragment, page, redirect } from '../../platform/web/page.js';
import { NotFoundError } from '../../platform/errors.js';
import { csrfField } from '../../platform/web/page-route.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { markupOf, renderMarkup } from '../../markdown/api.js';
import { isBinary } from '../repository-api/files-finder.js';
import { lastCommitOfFile } from '../repository-api/page-caches.js';
import { readCommits } from '../repository-api/object-reader.js';
import { baseName } from '../repository-api/tree-entries.js';
import { resolveFile, type ResolvedFile } from './resolve-file.js';
import { refBar } from './ref-bar.js';
import { authorName, avatarOf, findAuthors } from './people.js';
import { timeElement } from './time.js';
import { commitTitle } from './shared.js';
import { linesOf } from './file-lines.js';
import { chunkedLineTable, highlightedChunk, projectFile, type WholeFile } from './blob-chunks.js';
import { humanSize, imageType, MAX_SHOWN_BYTES, SHOWN_BYTES } from './file-kinds.js';
import { relativeLinksFor, repoUrl } from './urls.js';
import { readLfsObjectWhole, servedLfsObject, type LfsPointer } from '../lfs/pointer.js';

export const BLOB_PATTERN = /^(?<path>.+?)\/-\/blob\/(?<rest>.+)$/;

async function contentOf(context: PageContext, access: ProjectAccess, file: ResolvedFile, lfs: LfsPointer | null): Promise<Html> {
  const { resolved, content } = file;
  const base = `/${access.project.full_path}`;
  const path = resolved.path;
  const rawUrl = repoUrl(base, 'raw', resolved.ref, path);
  const download = html`<a href="${rawUrl}?inline=false">Download it</a>`;
  if (imageType(path)) return html`<div class="image-file"><img src="${rawUrl}" alt="${baseName(path)}"></div>`;
  if (lfs && lfs.size > MAX_SHOWN_BYTES) return html`<p class="empty">This file is stored with Git LFS (${humanSize(lfs.size)}) and is too large to display. ${download}.</p>`;
  if (content.length > MAX_SHOWN_BYTES) return html`<p class="empty">This file is too large to display (${humanSize(content.length)}). ${download}.</p>`;
  if (isBinary(content)) return html`<p class="empty">This is a binary file (${humanSize(content.length)}) and is not shown. ${download}.</p>`;
  if (content.length > SHOWN_BYTES && context.query.expanded !== 'true') {
    return html`<p class="empty">This file is larger than 1 MiB (${humanSize(content.length)}). <a href="?expanded=true">Load it anyway</a> or ${download}.</p>`;
  }
  const text = content.toString('utf8');
  const markup = markupOf(path);
  if (markup && context.query.plain !== '1') {
    return html`<div class="markdown markdown-file">${raw(await renderMarkup(context.deps, markup, text, { project: access, relativeLinks: relativeLinksFor(base, resolved.ref, path) }))}</div>`;
  }
  return chunkedLineTable({ ...wholeFile(context, access, file, lfs), label: `Contents of ${path}`, chunkUrl: (n) => `${repoUrl(base, 'blob', resolved.commit.id, path)}?chunk=${n}` });
}

/** The shown text, named by its content (the LFS object's id for a file stored with Git LFS, the blob's otherwise), its highlighting kept by that name. */
function wholeFile(context: PageContext, access: ProjectAccess, file: ResolvedFile, lfs: LfsPointer | null): WholeFile {
  return projectFile(context.deps, Number(access.project.id), file.resolved.path, lfs ? lfs.oid : file.entry.id, file.content.toString('utf8'));
}

/** `?chunk=N`: the highlighted lines of a long file's chunk N, the fragment its placeholder is replaced with. */
async function chunkFragment(context: PageContext, access: ProjectAccess, file: ResolvedFile, lfs: LfsPointer | null, chunk: string) {
  const { content } = file;
  if (!/^\d{1,6}$/.test(chunk) || content.length > MAX_SHOWN_BYTES || isBinary(content)) throw new NotFoundError('Chunk');
  const rows = await highlightedChunk(wholeFile(context, access, file, lfs), Number(chunk));
  if (!rows) throw new NotFoundError('Chunk');
  return fragment(rows);
}

function actionsOf(context: PageContext, access: ProjectAccess, file: ResolvedFile, lastId: string | null, lfs: boolean): Html {
  const { resolved } = file;
  const base = `/${access.project.full_path}`;
  const path = resolved.path;
  const markdown = markupOf(path) !== null;
  const mayEdit = resolved.kind === 'branch' && canOnProject(access, 'push_code');
  // A file stored with Git LFS is changed with git-lfs, not in the browser (GitLab's rule too).
  const editable = mayEdit && !lfs && !isBinary(file.content) && file.content.length <= MAX_SHOWN_BYTES;
  return html`<div class="file-actions">
${markdown ? (context.query.plain === '1' ? html`<a class="button small secondary" href="?">Display rendered</a>` : html`<a class="button small secondary" href="?plain=1">Display source</a>`) : ''}
${editable ? html`<a class="button small" href="${repoUrl(base, 'edit', resolved.ref, path)}">Edit</a>` : ''}
<a class="button small secondary" href="${repoUrl(base, 'raw', resolved.ref, path)}">Raw</a>
<a class="button small secondary" href="${repoUrl(base, 'blame', resolved.ref, path)}">Blame</a>
<a class="button small secondary" href="${repoUrl(base, 'commits', resolved.ref, path)}">History</a>
<a class="button small secondary" href="${repoUrl(base, 'blob', resolved.commit.id, path)}">Permalink</a>
<a class="button small secondary" href="${repoUrl(base, 'raw', resolved.ref, path)}?inline=false" download>Download</a>
${mayEdit ? html`<form class="inline" method="post" action="${repoUrl(base, 'delete', resolved.ref, path)}" data-confirm="Delete ${path}? This makes a commit on ${resolved.ref}.">${csrfField(context)}<input type="hidden" name="last_commit_id" value="${lastId ?? ''}"><input type="hidden" name="commit_message" value="Delete ${path}"><input type="hidden" name="branch_name" value="${resolved.ref}"><button type="submit" class="small danger">Delete</button></form>` : ''}
</div>`;
}

export async function renderBlob(context: PageContext, access: ProjectAccess) {
  const file = await resolveFile(context.deps, access, context.match.rest);
  const base = `/${access.project.full_path}`;
  if ('folder' in file) return redirect(repoUrl(base, 'tree', file.folder.ref, file.folder.path), null, 302);
  const lfs = await servedLfsObject(context.deps, access.project, file.content);
  // What is shown of a file stored with Git LFS is its object, when small enough to show.
  const shownFile = lfs && lfs.size <= MAX_SHOWN_BYTES ? { ...file, content: await readLfsObjectWhole(context.deps, lfs.oid) } : file;
  if (context.query.chunk !== undefined) return chunkFragment(context, access, shownFile, lfs, context.query.chunk);
  const { resolved } = file;
  const content = shownFile.content;
  const lastCommit = async () => {
    const id = await lastCommitOfFile(context.deps, Number(access.project.id), resolved.repoPath, resolved.commit.id, resolved.path);
    return { lastId: id, last: id ? (await readCommits(resolved.repoPath, [id])).get(id) : undefined };
  };
  const [{ lastId, last }, shown] = await Promise.all([lastCommit(), contentOf(context, access, shownFile, lfs)]);
  const authors = await findAuthors(context.deps, last ? [last.author] : []);
  const lines = lfs && lfs.size > MAX_SHOWN_BYTES ? null : isBinary(content) ? null : linesOf(content.toString('utf8')).length;
  const size = lfs ? lfs.size : content.length;
  const body = html`
${refBar({ access, resolved, destination: 'blob', leaf: 'blob' })}
${last ? html`<ul class="commit-list last-commit" id="last-commit"><li data-commit="${last.id}">${avatarOf(authors, last.author)}<div class="commit-main">Last changed in <a class="commit-title" href="${base}/-/commit/${last.id}">${commitTitle(last)}</a><br><span class="muted">${authorName(authors, last.author)} authored ${timeElement(last.author.seconds, context.deps.clock.now())}</span></div><a href="${base}/-/commit/${last.id}"><code class="sha">${last.id.slice(0, 8)}</code></a></li></ul>` : ''}
<section class="file-holder" aria-label="${resolved.path}">
<div class="file-header"><span class="file-title">${baseName(resolved.path)} <span class="muted">${lines !== null ? `${lines} ${lines === 1 ? 'line' : 'lines'} · ` : ''}${humanSize(size)}${file.entry.mode === '100755' ? ' · executable' : ''}</span>${lfs ? html` <span class="badge" title="This file is a Git LFS pointer; its content is stored with Git LFS">Stored with Git LFS</span>` : ''}</span>${actionsOf(context, access, shownFile, lastId, Boolean(lfs))}</div>
${shown}
</section>`;
  return page({ title: `${resolved.path} · ${resolved.ref} · ${access.project.name}`, heading: html`<h1><code>${baseName(resolved.path)}</code></h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
