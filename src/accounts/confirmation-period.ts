// Whether an account whose primary address is not confirmed may be used, by GitLab's
// email_confirmation_setting (User#confirmation_required_on_sign_in?): `off` lets it in, `hard` keeps
// it out until the address is confirmed, `soft` lets it in for a grace period and then acts as `hard`.
// The legacy send_user_confirmation_email switch is `hard` (it predates the three-way setting).
import type { ApplicationSettings } from '../application-settings/api.js';

/** GitLab's allow_unconfirmed_access_for under `soft`: three days. */
export const UNCONFIRMED_ACCESS_MS = 3 * 24 * 60 * 60_000;

export type ConfirmationSettings = Pick<ApplicationSettings, 'send_user_confirmation_email' | 'email_confirmation_setting'>;
export type ConfirmationMode = 'off' | 'soft' | 'hard';

export function confirmationMode(settings: ConfirmationSettings): ConfirmationMode {
  return settings.send_user_confirmation_email ? 'hard' : settings.email_confirmation_setting;
}

/**
 * Whether an unconfirmed account is kept out now. The grace period runs from the account's creation
 * (Kiln's choice): counting from the last confirmation mail, as Devise does, would let a resend reopen
 * it indefinitely, since a new link moves that time.
 */
export function unconfirmedKeptOut(settings: ConfirmationSettings, createdAt: number, now: number): boolean {
  const mode = confirmationMode(settings);
  if (mode === 'off') return false;
  if (mode === 'hard') return true;
  return now - createdAt >= UNCONFIRMED_ACCESS_MS;
}

/**
 * What a token of a kept-out account answers (GitLab's UserAccessDeniedReason for an unconfirmed user,
 * which its API gives as a 403 on any token: GlobalPolicy's `inactive` prevents access_api).
 */
export function unconfirmedTokenMessage(baseUrl: string): string {
  return 'Your primary email address is not confirmed. Please check your inbox for the confirmation instructions. '
    + `In case the link is expired, you can request a new confirmation email at ${baseUrl}/users/confirmation/new`;
}
