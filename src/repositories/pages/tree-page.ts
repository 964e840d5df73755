// A directory of the repository at a ref (GitLab's tree page): folders first, each entry linked.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { findTree, treesFirst } from '../repository-api/pages-api.js';
import { pathCrumbs, splitRefAndPath } from './shared.js';

export const TREE_PATTERN = /^(?<path>.+?)\/-\/tree\/(?<rest>.+)$/;

export async function renderTree(context: PageContext, access: ProjectAccess) {
  const found = await splitRefAndPath(context.deps, access, context.match.rest).catch((error) => {
    // The sidebar links the default branch before anything was pushed: say the repository is empty.
    if (error instanceof NotFoundError && context.match.rest === access.project.default_branch) return null;
    throw error;
  });
  if (!found) return emptyRepository(context, access);
  const { ref, path } = found;
  let entries;
  try {
    entries = treesFirst(await findTree(context.deps, access, { ref, path, recursive: false }));
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError('Tree');
    throw error;
  }
  const base = `/${access.project.full_path}`;
  const name = (entryPath: string) => entryPath.slice(entryPath.lastIndexOf('/') + 1);
  const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const body = html`
${pathCrumbs(base, 'tree', ref, path)}
${
  entries.length || path
    ? html`<table id="tree"><thead><tr><th>Name</th><th>Type</th></tr></thead><tbody>
${path ? html`<tr><td><a href="${base}/-/tree/${ref}${parent ? `/${parent}` : ''}">..</a></td><td>parent</td></tr>` : ''}
${entries.map((entry) => {
  const kind = entry.type === 'tree' ? 'tree' : 'blob';
  const label = entry.type === 'tree' ? 'folder' : entry.type === 'commit' ? 'submodule' : 'file';
  return html`<tr data-entry="${entry.path}"><td>${entry.type === 'commit' ? html`${name(entry.path)}` : html`<a href="${base}/-/${kind}/${ref}/${entry.path}">${name(entry.path)}${entry.type === 'tree' ? '/' : ''}</a>`}</td><td>${label}</td></tr>`;
})}</tbody></table>`
    : html`<p class="empty">This directory is empty.</p>`
}`;
  return page({ title: `${path || ref} · Files · ${access.project.name}`, heading: html`<h1>Files</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}

function emptyRepository(context: PageContext, access: ProjectAccess) {
  const cloneUrl = `${context.deps.config.baseUrl}/${access.project.full_path}.git`;
  const body = html`<p class="empty" id="empty-repository">The repository is empty. Push a branch to it: <code>git push ${cloneUrl} HEAD:${access.project.default_branch}</code></p>`;
  return page({ title: `Files · ${access.project.name}`, heading: html`<h1>Files</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
