// GET/POST /-/upload/<branch>/<dir>: a file from the visitor's computer added (or replacing the file
// of the same name) as a commit (GitLab's upload dialog); GET/POST /-/new_dir/<branch>/<dir>: a new
// folder, which git keeps through an empty `.gitkeep` in it, as GitLab makes it.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { isUploadedFile } from '../../platform/http/multipart.js';
import { entryAt } from '../repository-api/git-reads.js';
import { resolveRef } from './resolve-ref.js';
import { commitFields, commitFromForm, field, formPage, requireBranch } from './commit-form.js';
import { repoUrl } from './urls.js';

export const UPLOAD_PATTERN = /^(?<path>.+?)\/-\/upload\/(?<rest>.+)$/;
export const NEW_DIR_PATTERN = /^(?<path>.+?)\/-\/new_dir\/(?<rest>.+)$/;

function uploadForm(context: PageContext, access: ProjectAccess, ref: string, directory: string, values: { message: string; branch: string }) {
  const base = `/${access.project.full_path}`;
  return html`<form class="stacked" method="post" action="${repoUrl(base, 'upload', ref, directory)}" enctype="multipart/form-data">
<label for="upload-file">File</label><input type="file" id="upload-file" name="file" required>
<p class="muted">It is added to <code>${directory || '/'}</code>; a file of the same name there is replaced.</p>
${commitFields(context, values, ref)}
<p class="actions"><button type="submit">Upload file</button> <a href="${repoUrl(base, 'tree', ref, directory)}">Cancel</a></p></form>`;
}

export async function renderUpload(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  requireBranch(resolved);
  return formPage(access, 'Upload file', uploadForm(context, access, resolved.ref, resolved.path, { message: '', branch: resolved.ref }));
}

export async function uploadFile(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  requireBranch(resolved);
  const values = { message: field(context.form, 'commit_message'), branch: field(context.form, 'branch_name') };
  const again = (error: string) => formPage(access, 'Upload file', uploadForm(context, access, resolved.ref, resolved.path, values), error, 400);
  const upload = (context.request.body as Record<string, unknown> | undefined)?.file;
  if (!isUploadedFile(upload) || upload.filename.trim() === '') return again('Choose a file to upload.');
  const name = upload.filename.replace(/^.*[\\/]/, '');
  const path = resolved.path ? `${resolved.path}/${name}` : name;
  const existing = await entryAt(resolved.repoPath, resolved.commit.id, path);
  return commitFromForm(
    context,
    access,
    resolved,
    { actions: [{ action: existing ? 'update' : 'create', filePath: path, content: upload.data }], defaultMessage: `Upload New File`, showPath: path, showKind: 'blob' },
    again,
  );
}

function newDirForm(context: PageContext, access: ProjectAccess, ref: string, directory: string, values: { name: string; message: string; branch: string }) {
  const base = `/${access.project.full_path}`;
  return html`<form class="stacked" method="post" action="${repoUrl(base, 'new_dir', ref, directory)}">
<label for="dir-name">Directory name</label><input type="text" id="dir-name" name="dir_name" value="${values.name}" required>
${commitFields(context, values, ref)}
<p class="actions"><button type="submit">Create directory</button> <a href="${repoUrl(base, 'tree', ref, directory)}">Cancel</a></p></form>`;
}

export async function renderNewDir(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  requireBranch(resolved);
  return formPage(access, 'New directory', newDirForm(context, access, resolved.ref, resolved.path, { name: '', message: '', branch: resolved.ref }));
}

export async function createDir(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  requireBranch(resolved);
  const values = { name: field(context.form, 'dir_name').trim().replace(/^\/+|\/+$/g, ''), message: field(context.form, 'commit_message'), branch: field(context.form, 'branch_name') };
  const again = (error: string) => formPage(access, 'New directory', newDirForm(context, access, resolved.ref, resolved.path, values), error, 400);
  if (values.name === '') return again('You must provide a directory name');
  const directory = resolved.path ? `${resolved.path}/${values.name}` : values.name;
  return commitFromForm(
    context,
    access,
    resolved,
    { actions: [{ action: 'create', filePath: `${directory}/.gitkeep`, content: Buffer.alloc(0) }], defaultMessage: `Add new directory`, showPath: directory, showKind: 'tree' },
    again,
  );
}
