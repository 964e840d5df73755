// Files edited in the browser, each change a commit (GitLab's new, edit and delete blob pages):
// GET /-/new/<branch>/<dir> and POST /-/create/<branch>/<dir>: a new file;
// GET /-/edit/<branch>/<path> and POST /-/update/<branch>/<path>: new content for a file, refused if
// the file changed since the form was read (its last commit travels with the form);
// POST /-/delete/<branch>/<path>: the file removed (the blob page's button).
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { NotFoundError } from '../../platform/errors.js';
import { isBinary } from '../repository-api/files-finder.js';
import { lastCommitFor } from '../repository-api/git-reads.js';
import { resolveRef } from './resolve-ref.js';
import { resolveFile } from './resolve-file.js';
import { commitFields, commitFromForm, field, formPage, requireBranch } from './commit-form.js';
import { MAX_SHOWN_BYTES } from './file-kinds.js';
import { repoUrl } from './urls.js';

export const NEW_FILE_PATTERN = /^(?<path>.+?)\/-\/new\/(?<rest>.+)$/;
export const CREATE_FILE_PATTERN = /^(?<path>.+?)\/-\/create\/(?<rest>.+)$/;
export const EDIT_FILE_PATTERN = /^(?<path>.+?)\/-\/edit\/(?<rest>.+)$/;
export const UPDATE_FILE_PATTERN = /^(?<path>.+?)\/-\/update\/(?<rest>.+)$/;
export const DELETE_FILE_PATTERN = /^(?<path>.+?)\/-\/delete\/(?<rest>.+)$/;

function newFileForm(context: PageContext, access: ProjectAccess, ref: string, directory: string, values: { name: string; content: string; message: string; branch: string }) {
  const base = `/${access.project.full_path}`;
  return html`<form class="stacked" method="post" action="${repoUrl(base, 'create', ref, directory)}">
<label for="file-name">File name</label><input type="text" id="file-name" name="file_name" value="${values.name}" required placeholder="${directory ? `${directory}/` : ''}name.ext">
<label for="file-content">Content</label><textarea id="file-content" name="content" rows="20">${values.content}</textarea>
${commitFields(context, values, ref)}
<p class="actions"><button type="submit">Commit changes</button> <a href="${repoUrl(base, 'tree', ref, directory)}">Cancel</a></p></form>`;
}

export async function renderNewFile(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  requireBranch(resolved);
  const values = { name: resolved.path ? `${resolved.path}/` : '', content: '', message: '', branch: resolved.ref };
  return formPage(access, 'New file', newFileForm(context, access, resolved.ref, resolved.path, values));
}

export async function createFile(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  requireBranch(resolved);
  const values = { name: field(context.form, 'file_name').trim(), content: field(context.form, 'content'), message: field(context.form, 'commit_message'), branch: field(context.form, 'branch_name') };
  // A name typed without the folder is created in the folder the form was opened in.
  const path = values.name.startsWith(`${resolved.path}/`) || resolved.path === '' ? values.name : `${resolved.path}/${values.name}`;
  return commitFromForm(
    context,
    access,
    resolved,
    { actions: [{ action: 'create', filePath: path, content: Buffer.from(values.content, 'utf8') }], defaultMessage: `Add new file`, showPath: path.replace(/^\/+/, ''), showKind: 'blob' },
    (error) => formPage(access, 'New file', newFileForm(context, access, resolved.ref, resolved.path, values), error, 400),
  );
}

function editForm(context: PageContext, access: ProjectAccess, ref: string, path: string, values: { content: string; message: string; branch: string; lastCommitId: string }) {
  const base = `/${access.project.full_path}`;
  return html`<form class="stacked" method="post" action="${repoUrl(base, 'update', ref, path)}">
<input type="hidden" name="last_commit_id" value="${values.lastCommitId}">
<label for="file-content">Content of <code>${path}</code></label><textarea id="file-content" name="content" rows="24">${values.content}</textarea>
${commitFields(context, values, ref)}
<p class="actions"><button type="submit">Commit changes</button> <a href="${repoUrl(base, 'blob', ref, path)}">Cancel</a></p></form>`;
}

export async function renderEditFile(context: PageContext, access: ProjectAccess) {
  const file = await resolveFile(context.deps, access, context.match.rest);
  if ('folder' in file) throw new NotFoundError('File');
  requireBranch(file.resolved);
  if (isBinary(file.content) || file.content.length > MAX_SHOWN_BYTES) throw new NotFoundError('File');
  const { resolved } = file;
  const lastCommitId = (await lastCommitFor(resolved.repoPath, resolved.commit.id, resolved.path)) ?? resolved.commit.id;
  const values = { content: file.content.toString('utf8'), message: `Update ${resolved.path.slice(resolved.path.lastIndexOf('/') + 1)}`, branch: resolved.ref, lastCommitId };
  return formPage(access, `Edit ${resolved.path}`, editForm(context, access, resolved.ref, resolved.path, values));
}

export async function updateFile(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  requireBranch(resolved);
  if (resolved.path === '') throw new NotFoundError('File');
  const values = { content: field(context.form, 'content'), message: field(context.form, 'commit_message'), branch: field(context.form, 'branch_name'), lastCommitId: field(context.form, 'last_commit_id') };
  // Browsers send textarea line breaks as CRLF; the file keeps the line breaks it had.
  const content = values.content.replace(/\r\n/g, '\n');
  return commitFromForm(
    context,
    access,
    resolved,
    { actions: [{ action: 'update', filePath: resolved.path, content: Buffer.from(content, 'utf8'), lastCommitId: values.lastCommitId || undefined }], defaultMessage: `Update ${resolved.path}`, showPath: resolved.path, showKind: 'blob' },
    (error) => formPage(access, `Edit ${resolved.path}`, editForm(context, access, resolved.ref, resolved.path, values), error, 400),
  );
}

export async function deleteFile(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  requireBranch(resolved);
  if (resolved.path === '') throw new NotFoundError('File');
  const parent = resolved.path.includes('/') ? resolved.path.slice(0, resolved.path.lastIndexOf('/')) : '';
  const base = `/${access.project.full_path}`;
  return commitFromForm(
    context,
    access,
    resolved,
    { actions: [{ action: 'delete', filePath: resolved.path, lastCommitId: field(context.form, 'last_commit_id') || undefined }], defaultMessage: `Delete ${resolved.path}`, showPath: parent, showKind: 'tree' },
    (error) => formPage(access, `Delete ${resolved.path}`, html`<p><a href="${repoUrl(base, 'blob', resolved.ref, resolved.path)}">Back to the file</a></p>`, error, 400),
  );
}
