// Start two-factor enrolment: a fresh TOTP secret, sealed on the user but not yet required.
import { Secret } from 'otpauth';
import type { Deps } from '../platform/deps.js';
import type { UserRow } from './lookup.js';

export async function beginEnrolment(deps: Deps, user: UserRow): Promise<void> {
  const secret = new Secret({ size: 20 }).base32;
  await deps.db.updateTable('users').set({ otp_secret_sealed: deps.box.seal(secret), updated_at: deps.clock.now() }).where('id', '=', user.id).where('otp_required', '=', 0).execute();
}
