// Turn two-factor authentication off: the secret and the recovery codes go.
import type { Deps } from '../platform/deps.js';

export async function disableTwoFactor(deps: Deps, userId: number): Promise<void> {
  await deps.db.updateTable('users').set({ otp_required: 0, otp_secret_sealed: null, otp_backup_codes: null, updated_at: deps.clock.now() }).where('id', '=', userId).execute();
}
