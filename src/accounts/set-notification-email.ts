// PUT /users/:id `notification_email`: kept by the notifications feature as the user's global
// notification setting, through the hook it registers (hooks.ts).
import type { Deps } from '../platform/deps.js';
import type { UserRow } from './lookup.js';
import { accountHooks } from './hooks.js';

export async function setNotificationEmail(deps: Deps, user: UserRow, email: string): Promise<void> {
  const set = accountHooks(deps).setNotificationEmail;
  if (!set) throw new Error('no notification e-mail hook registered (the notifications feature registers it at setup)');
  await set(user, email);
}
