// Uploads, always looked up through their project.
import type { Selectable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { UploadsTable } from '../platform/db/tables/uploads.js';
import { RecordNotFoundError } from '../platform/errors.js';
import { SECRET } from './upload-files.js';

export type UploadRow = Selectable<UploadsTable>;

export async function findUploadById(db: Executor, projectId: number, uploadId: number): Promise<UploadRow> {
  const row = await db.selectFrom('uploads').selectAll().where('project_id', '=', projectId).where('id', '=', uploadId).executeTakeFirst();
  if (!row) throw new RecordNotFoundError();
  return row;
}

/** By the two parts of its URL; the name must match as served (GitLab's FileUploader lookup). */
export async function findUploadBySecret(db: Executor, projectId: number, secret: string, filename: string): Promise<UploadRow> {
  if (!SECRET.test(secret)) throw new RecordNotFoundError();
  const row = await db.selectFrom('uploads').selectAll().where('project_id', '=', projectId).where('secret', '=', secret).executeTakeFirst();
  if (!row || row.filename !== filename) throw new RecordNotFoundError();
  return row;
}

export function projectUploadsQuery(db: Executor, projectId: number) {
  return db.selectFrom('uploads').selectAll().where('project_id', '=', projectId).orderBy('created_at', 'desc').orderBy('id', 'desc');
}

/** Bytes of a project's uploads (ProjectStatistics' uploads_size). */
export async function projectUploadsSize(db: Executor, projectId: number): Promise<number> {
  const row = await db.selectFrom('uploads').select((eb) => eb.fn.sum<number | string | null>('size').as('total')).where('project_id', '=', projectId).executeTakeFirst();
  return Number(row?.total ?? 0);
}
