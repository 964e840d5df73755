// Attach a file to a project (GitLab's UploadService): stored under a new secret, refused with 413
// when larger than the instance's `max_attachment_size`. The file is written before its row, so a row
// always has its bytes; a row that could not be written leaves a file the orphan job never sees, so
// it is removed here.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { StatusError } from '../platform/errors.js';
import type { UploadedFile } from '../platform/http/multipart.js';
import { readApplicationSettings } from '../application-settings/api.js';
import { sanitizeFilename } from './file-names.js';
import { removeUploadFile, writeUploadFile } from './upload-files.js';
import type { UploadRow } from './finder.js';

export const MIB = 1024 * 1024;
/** The most `max_attachment_size` may be (application-settings/definitions.ts), and the upload route's body limit. */
export const MAX_UPLOAD_BYTES = 100 * MIB;

export async function createUpload(deps: Deps, actorId: number | null, projectId: number, file: UploadedFile): Promise<UploadRow> {
  const limit = (await readApplicationSettings(deps.db)).max_attachment_size * MIB;
  if (file.data.length > limit) throw new StatusError(413, '413 Request Entity Too Large');
  const secret = randomBytes(16).toString('hex');
  const root = deps.config.uploadsPath;
  await writeUploadFile(root, projectId, secret, file.data);
  try {
    return await deps.db
      .insertInto('uploads')
      .values({ project_id: projectId, secret, filename: sanitizeFilename(file.filename), size: file.data.length, uploaded_by_user_id: actorId, created_at: deps.clock.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    await removeUploadFile(root, projectId, secret);
    throw error;
  }
}
