// Where Markdown's upload links lead (GitLab's Projects::UploadsController#show):
// `/<project>/uploads/<secret>/<name>` and `/-/project/<id>/uploads/<secret>/<name>`, served to whoever
// reads the project — a private project's files are a 404 to outsiders, and anonymous visitors are asked
// to sign in, as for every page of it.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { namespacedPage, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { ANSWERED } from '../platform/web/page.js';
import { NotFoundError, RecordNotFoundError } from '../platform/errors.js';
import { findUploadBySecret } from './finder.js';
import { sendUpload } from './send-upload.js';

export const UPLOAD_PATTERN = /^(?<path>.+?)\/uploads\/(?<secret>[0-9a-f]{32})\/(?<filename>[^/]+)$/;

export function uploadPages(app: FastifyInstance, deps: Deps): void {
  const serve = async (context: PageContext, secret: string, filename: string) => {
    const access = await context.project();
    const upload = await findUploadBySecret(deps.db, Number(access.project.id), secret, filename).catch((error: unknown) => {
      throw error instanceof RecordNotFoundError ? new NotFoundError() : error;
    });
    sendUpload(context.reply, deps.config.uploadsPath, upload);
    return ANSWERED;
  };
  namespacedPage(app, deps, {
    method: 'GET', pattern: UPLOAD_PATTERN, ability: { project: 'read_upload' }, auth: 'optional',
    handler: (context) => serve(context, context.match.secret, context.match.filename),
  });
  pageRoute(app, deps, {
    method: 'GET', url: '/-/project/:project/uploads/:secret/:filename', ability: { project: 'read_upload' }, auth: 'optional',
    handler: (context) => serve(context, context.params.secret, context.params.filename),
  });
}
