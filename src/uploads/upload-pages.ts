// Uploading from the web (GitLab's Projects::UploadsController#create): the page behind "Attach a
// file" for browsers without JavaScript, and the endpoint kiln.js posts to. A browser form gets a page
// with the Markdown to paste; a script asking for JSON gets GitLab's `{link: {alt, url, markdown}}`.
// Web uploads are bounded by the pages' 10 MiB body limit as well as by max_attachment_size.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html } from '../platform/web/html.js';
import { csrfField, namespacedPage, type PageContext } from '../platform/web/page-route.js';
import { ANSWERED, page } from '../platform/web/page.js';
import { isUploadedFile } from '../platform/http/multipart.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { createUpload } from './create-upload.js';
import { projectUploadEntity } from './entities.js';

export const NEW_UPLOAD_PATTERN = /^(?<path>.+?)\/uploads\/new$/;
export const CREATE_UPLOAD_PATTERN = /^(?<path>.+?)\/uploads$/;

function uploadForm(context: PageContext, access: ProjectAccess, error?: string) {
  const body = html`
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/${access.project.full_path}/uploads" enctype="multipart/form-data" class="stacked" id="new-upload">
${csrfField(context)}
<label for="upload-file">File</label><input type="file" id="upload-file" name="file" required>
<button type="submit">Upload</button>
</form>`;
  return page({ title: `Attach a file · ${access.project.name}`, body, status: error ? 400 : 200 });
}

export function uploadFormPages(app: FastifyInstance, deps: Deps): void {
  namespacedPage(app, deps, {
    method: 'GET', pattern: NEW_UPLOAD_PATTERN, ability: { project: 'upload_file' },
    handler: async (context) => uploadForm(context, await context.project()),
  });
  namespacedPage(app, deps, {
    method: 'POST', pattern: CREATE_UPLOAD_PATTERN, ability: { project: 'upload_file' },
    handler: async (context) => {
      const access = await context.project();
      const file = (context.request.body as Record<string, unknown> | undefined)?.file;
      const wantsJson = String(context.request.headers.accept ?? '').includes('application/json');
      if (!isUploadedFile(file)) {
        if (!wantsJson) return uploadForm(context, access, 'Choose a file to upload.');
        context.reply.code(400).send({ error: 'file is missing' });
        return ANSWERED;
      }
      const upload = projectUploadEntity(await createUpload(deps, context.user.id, Number(access.project.id), file));
      if (wantsJson) {
        context.reply.code(201).header('cache-control', 'no-store').send({ link: { alt: upload.alt, url: upload.url, markdown: upload.markdown } });
        return ANSWERED;
      }
      const body = html`<p>Uploaded. Paste this into the description or comment:</p>
<p class="clone"><input type="text" id="upload-markdown" value="${upload.markdown}" readonly aria-label="Markdown of the upload"><button type="button" class="secondary" data-copy="upload-markdown">Copy</button></p>
<p><a href="/${access.project.full_path}/uploads/new">Attach another file</a></p>`;
      return page({ title: `File attached · ${access.project.name}`, body, status: 201 });
    },
  });
}
