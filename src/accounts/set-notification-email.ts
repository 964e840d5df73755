// PUT /users/:id `notification_email`: kept by the notifications feature as the user's global
// notification setting, through the hook it registers (hooks.ts).
import type { Deps } from '../platform/deps.js';
import type { UserRow } from './lookup.js';
import { accountHooks } from './hooks.js';
import { ValidationError } from '../platform/errors.js';
import { confirmedEmailsOf } from './emails-finder.js';

export async function setNotificationEmail(deps: Deps, user: UserRow, email: string): Promise<void> {
  const set = accountHooks(deps).setNotificationEmail;
  if (!set) throw new Error('no notification e-mail hook registered (the notifications feature registers it at setup)');
  await set(user, email);
}

/** GitLab's validation: one of the user's confirmed addresses, or the primary one this request sets. */
export async function checkNotificationEmail(deps: Deps, userId: number, email: string, newPrimary: string | undefined): Promise<void> {
  const allowed = [...(await confirmedEmailsOf(deps, userId)), ...(newPrimary ? [newPrimary] : [])];
  if (!allowed.some((address) => address.toLowerCase() === email.trim().toLowerCase())) {
    throw new ValidationError({ notification_email: ['must be an email you have verified'] });
  }
}
