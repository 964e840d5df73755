// Project and group avatars (GitLab's AvatarUploader): an image of an allowed type up to 200 KiB,
// kept in the database beside its model so that every node serves it. The content type comes from
// the extension we accept, never from what the client claimed.
import { extname } from 'node:path';
import type { Executor } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { isUploadedFile, type UploadedFile } from '../platform/http/multipart.js';

export const AVATAR_MAX_BYTES = 200 * 1024;

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  ico: 'image/vnd.microsoft.icon',
  webp: 'image/webp',
};

export type AvatarModel = 'Project' | 'Namespace';

/**
 * The `avatar` parameter: a file to store, or `null` to remove the avatar (an empty value, as
 * python-gitlab sends `avatar=""`). Anything else is the model's 400.
 */
export function avatarChange(value: unknown): UploadedFile | null {
  if (value === '' || value === null) return null;
  if (!isUploadedFile(value)) throw new ValidationError({ avatar: ['must be a file uploaded as multipart/form-data'] });
  const extension = extname(value.filename).slice(1).toLowerCase();
  if (!TYPES[extension]) {
    throw new ValidationError({ avatar: [`You are not allowed to upload "${extension}" files, allowed types: ${Object.keys(TYPES).join(', ')}`] });
  }
  if (value.data.length > AVATAR_MAX_BYTES) throw new ValidationError({ avatar: ['is too big (should be at most 200 KiB)'] });
  return value;
}

/** A file name safe in a URL path segment and a header, keeping the extension. */
function safeFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? 'avatar';
  return base.replace(/[^a-zA-Z0-9_.-]/g, '_').replace(/^\.+/, '') || 'avatar';
}

/** Store (or replace) the avatar; returns the file name the model records. */
export async function storeAvatar(executor: Executor, model: AvatarModel, id: number, file: UploadedFile, now: number): Promise<string> {
  const filename = safeFilename(file.filename);
  const contentType = TYPES[extname(filename).slice(1).toLowerCase()] ?? 'application/octet-stream';
  await removeAvatar(executor, model, id);
  await executor.insertInto('avatars').values({ model_type: model, model_id: id, filename, content_type: contentType, data: file.data, created_at: now }).execute();
  return filename;
}

export async function removeAvatar(executor: Executor, model: AvatarModel, id: number): Promise<void> {
  await executor.deleteFrom('avatars').where('model_type', '=', model).where('model_id', '=', id).execute();
}

export async function findAvatar(executor: Executor, model: AvatarModel, id: number) {
  return executor.selectFrom('avatars').select(['filename', 'content_type', 'data']).where('model_type', '=', model).where('model_id', '=', id).executeTakeFirst();
}
