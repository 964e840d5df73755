// Store (or replace) a project's or group's avatar, in the database so that every node serves it;
// returns the file name the model records.
import { extname } from 'node:path';
import type { Executor } from '../platform/db/database.js';
import type { UploadedFile } from '../platform/http/multipart.js';
import { AVATAR_TYPES, type AvatarModel } from './avatar-change.js';
import { removeAvatar } from './remove-avatar.js';

/** A file name safe in a URL path segment and a header, keeping the extension. */
function safeFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? 'avatar';
  return base.replace(/[^a-zA-Z0-9_.-]/g, '_').replace(/^\.+/, '') || 'avatar';
}

export async function storeAvatar(executor: Executor, model: AvatarModel, id: number, file: UploadedFile, now: number): Promise<string> {
  const filename = safeFilename(file.filename);
  const contentType = AVATAR_TYPES[extname(filename).slice(1).toLowerCase()] ?? 'application/octet-stream';
  await removeAvatar(executor, model, id);
  await executor.insertInto('avatars').values({ model_type: model, model_id: id, filename, content_type: contentType, data: file.data, created_at: now }).execute();
  return filename;
}
