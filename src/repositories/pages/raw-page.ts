// GET /<project>/-/raw/<ref>/<path>: a file's bytes as stored (GitLab's raw blob), typed so that no
// browser renders it as a page of Kiln (text/plain, an image type, or octet-stream) and sandboxed;
// `?inline=false` asks for a download. A Git LFS pointer is answered with its object.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { ANSWERED } from '../../platform/web/page.js';
import { baseName } from '../repository-api/tree-entries.js';
import { resolveFile } from './resolve-file.js';
import { rawContentType } from './file-kinds.js';
import { setRawHeaders } from '../../platform/http/raw-headers.js';
import { lfsObjectHead, servedLfsObject } from '../lfs/pointer.js';
import { readObject } from '../lfs/object-store.js';

export const RAW_PATTERN = /^(?<path>.+?)\/-\/raw\/(?<rest>.+)$/;

export async function renderRaw(context: PageContext, access: ProjectAccess) {
  const file = await resolveFile(context.deps, access, context.match.rest);
  if ('folder' in file) throw new NotFoundError('File');
  const path = file.resolved.path;
  const disposition = context.query.inline === 'false' ? 'attachment' : 'inline';
  // A pointer to an LFS object the project holds: the object itself (GitLab's send_lfs_object).
  const lfs = await servedLfsObject(context.deps, access.project, file.content);
  if (lfs) {
    setRawHeaders(context.reply, baseName(path), rawContentType(path, await lfsObjectHead(context.deps, lfs.oid)), disposition);
    context.reply.header('content-length', String(lfs.size)).send(readObject(context.deps.config.lfsPath, lfs.oid));
    return ANSWERED;
  }
  setRawHeaders(context.reply, baseName(path), rawContentType(path, file.content), disposition);
  context.reply.send(file.content);
  return ANSWERED;
}
