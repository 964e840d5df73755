// Remove a project's or group's avatar (an update with an empty `avatar`, or the model's deletion).
import type { Executor } from '../platform/db/database.js';
import type { AvatarModel } from './avatar-change.js';

export async function removeAvatar(executor: Executor, model: AvatarModel, id: number): Promise<void> {
  await executor.deleteFrom('avatars').where('model_type', '=', model).where('model_id', '=', id).execute();
}
