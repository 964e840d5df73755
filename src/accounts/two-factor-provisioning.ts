// The pending or active TOTP secret as text and as an otpauth:// URI for the QR code.
import type { Deps } from '../platform/deps.js';
import type { UserRow } from './lookup.js';
import { totpFor } from './totp.js';

export function provisioning(deps: Deps, user: UserRow): { secret: string; uri: string } | null {
  if (!user.otp_secret_sealed) return null;
  const secret = deps.box.open(user.otp_secret_sealed);
  return { secret, uri: totpFor(deps, user, secret).toString() };
}
