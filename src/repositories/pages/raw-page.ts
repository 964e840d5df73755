// GET /<project>/-/raw/<ref>/<path>: a file's bytes as stored (GitLab's raw blob), typed so that no
// browser renders it as a page of Kiln (text/plain, an image type, or octet-stream) and sandboxed;
// `?inline=false` asks for a download.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { ANSWERED } from '../../platform/web/page.js';
import { baseName } from '../repository-api/tree-entries.js';
import { resolveFile } from './resolve-file.js';
import { rawContentType } from './file-kinds.js';
import { setRawHeaders } from './raw-headers.js';

export const RAW_PATTERN = /^(?<path>.+?)\/-\/raw\/(?<rest>.+)$/;

export async function renderRaw(context: PageContext, access: ProjectAccess) {
  const file = await resolveFile(context.deps, access, context.match.rest);
  if ('folder' in file) throw new NotFoundError('File');
  const path = file.resolved.path;
  setRawHeaders(context.reply, baseName(path), rawContentType(path, file.content), context.query.inline === 'false' ? 'attachment' : 'inline');
  context.reply.send(file.content);
  return ANSWERED;
}
