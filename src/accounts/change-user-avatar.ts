// Store, replace or remove a user's avatar (PUT /user/avatar, the administrators' user create and
// update, the profile page): the file in `avatars` and its name on the user's row and their namespace's,
// in the caller's transaction so a refused change leaves neither.
import type { Executor } from '../platform/db/database.js';
import type { UploadedFile } from '../platform/http/multipart.js';
import { removeAvatar } from './remove-avatar.js';
import { storeAvatar } from './store-avatar.js';

/** `null` removes the avatar (the generated SVG shows again); returns the file name now recorded. */
export async function changeUserAvatar(executor: Executor, userId: number, file: UploadedFile | null, now: number): Promise<string | null> {
  let filename: string | null = null;
  if (file) filename = await storeAvatar(executor, 'User', userId, file, now);
  else await removeAvatar(executor, 'User', userId);
  await executor.updateTable('users').set({ avatar: filename, updated_at: now }).where('id', '=', userId).execute();
  // Their namespace shows the same avatar (GitLab's NamespaceBasic of a user namespace), from its own
  // row, so namespace and project entities need no user lookup; the update moves the namespace's version.
  await executor.updateTable('namespaces').set({ avatar: filename, updated_at: now }).where('kind', '=', 'user').where('owner_id', '=', userId).execute();
  return filename;
}
