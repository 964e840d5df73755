// A project's or group's avatar file, to serve.
import type { Executor } from '../platform/db/database.js';
import type { AvatarModel } from './avatar-change.js';

export async function findAvatar(executor: Executor, model: AvatarModel, id: number) {
  return executor.selectFrom('avatars').select(['filename', 'content_type', 'data']).where('model_type', '=', model).where('model_id', '=', id).executeTakeFirst();
}
