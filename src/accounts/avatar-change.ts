// The `avatar` parameter of project and group updates (GitLab's AvatarUploader): an image of an
// allowed type up to 200 KiB, or empty to remove the avatar. The content type comes from the
// extension we accept, never from what the client claimed.
import { extname } from 'node:path';
import { ValidationError } from '../platform/errors.js';
import { isUploadedFile, type UploadedFile } from '../platform/http/multipart.js';

export const AVATAR_MAX_BYTES = 200 * 1024;

export const AVATAR_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  ico: 'image/vnd.microsoft.icon',
  webp: 'image/webp',
};

export type AvatarModel = 'Project' | 'Namespace' | 'Topic' | 'User';

/** A file to store, or `null` to remove the avatar (python-gitlab and gitbeaker send `avatar=""`). Anything else is the model's 400. */
export function avatarChange(value: unknown): UploadedFile | null {
  if (value === '' || value === null) return null;
  if (!isUploadedFile(value)) throw new ValidationError({ avatar: ['must be a file uploaded as multipart/form-data'] });
  const extension = extname(value.filename).slice(1).toLowerCase();
  if (!AVATAR_TYPES[extension]) {
    throw new ValidationError({ avatar: [`You are not allowed to upload "${extension}" files, allowed types: ${Object.keys(AVATAR_TYPES).join(', ')}`] });
  }
  if (value.data.length > AVATAR_MAX_BYTES) throw new ValidationError({ avatar: ['is too big (should be at most 200 KiB)'] });
  return value;
}
