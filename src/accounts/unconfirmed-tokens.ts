// Tokens of an account kept out for its unconfirmed primary address (confirmation-period.ts): GitLab's
// API refuses them with UserAccessDeniedReason's 403 (GlobalPolicy `inactive` prevents access_api), and
// its git client look-up does not take them (personal_access_token_check and oauth_access_token_check
// ask User#can?(:log_in)), so git over HTTP answers its 401 challenge.
//
// The token look-ups read `address_unconfirmed` and the user's `created_at` with the token, through the
// row cache; they list `emails` among the tables read, so confirming the address (a write to `emails`)
// makes every cached look-up of that user's tokens stale. What is cached is only the facts: the grace
// period depends on the clock and the setting, so it is judged on every look-up, after the cache.
import type { Deps } from '../platform/deps.js';
import type { TokenLookup } from '../platform/auth/principal.js';
import { currentSettings } from '../application-settings/api.js';
import { unconfirmedKeptOut, unconfirmedTokenMessage } from './confirmation-period.js';

/** What the token look-ups read for this decision (the primary address's row may be missing: never asked). */
export interface AddressFacts {
  created_at: number;
  /** 1 when the user's primary address has a row that is not confirmed. */
  address_unconfirmed: number;
}

/** The refusal for a kept-out user's token, or null. The settings are read only for an unconfirmed address. */
export async function unconfirmedRefusal(deps: Deps, row: AddressFacts, now: number): Promise<TokenLookup> {
  if (Number(row.address_unconfirmed) !== 1) return null;
  if (!unconfirmedKeptOut(await currentSettings(deps), Number(row.created_at), now)) return null;
  return { status: 'refused', reason: unconfirmedTokenMessage(deps.config.baseUrl) };
}
