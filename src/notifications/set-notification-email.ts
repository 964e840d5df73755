// PUT /users/:id `notification_email`: one of the user's confirmed addresses (GitLab's
// notification_email validation), kept as the user's global notification setting. Accounts calls it
// through the hook this feature registers (accounts/hooks.ts).
import type { Deps } from '../platform/deps.js';
import { toAuthUser, type UserRow } from '../accounts/api.js';
import { GLOBAL_SOURCE } from './finder.js';
import { updateNotificationSetting } from './update-notification-setting.js';

export async function setNotificationEmail(deps: Deps, user: UserRow, email: string): Promise<void> {
  const owner = { user: toAuthUser(user), scopes: [], via: 'session' as const, tokenId: null };
  await updateNotificationSetting(deps, owner, { source: GLOBAL_SOURCE, notificationEmail: email });
}
