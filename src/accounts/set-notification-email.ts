// PUT /users/:id `notification_email`: one of the user's confirmed addresses (GitLab's
// notification_email validation), kept as the user's global notification setting.
import type { Deps } from '../platform/deps.js';
import { updateNotificationSetting, GLOBAL_SOURCE } from '../notifications/api.js';
import type { UserRow } from './lookup.js';
import { toAuthUser } from './user-entities.js';

export async function setNotificationEmail(deps: Deps, user: UserRow, email: string): Promise<void> {
  const owner = { user: toAuthUser(user), scopes: [], via: 'session' as const, tokenId: null };
  await updateNotificationSetting(deps, owner, { source: GLOBAL_SOURCE, notificationEmail: email });
}
