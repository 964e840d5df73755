// Remove an upload (DELETE /projects/:id/uploads/:upload_id): its row, then its file. A crash in
// between leaves a file no row names, which costs disk until the project goes, never a dangling link.
import type { Deps } from '../platform/deps.js';
import type { UploadRow } from './finder.js';
import { removeUploadFile } from './upload-files.js';

export async function deleteUpload(deps: Deps, upload: UploadRow): Promise<void> {
  await deps.db.deleteFrom('uploads').where('id', '=', upload.id).execute();
  await removeUploadFile(deps.config.uploadsPath, Number(upload.project_id), upload.secret);
}
