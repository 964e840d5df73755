// The second sign-in step: a current TOTP code not used before, or an unused recovery code.
import type { Deps } from '../platform/deps.js';
import type { UserRow } from './lookup.js';
import { useTotp } from './totp.js';
import { consumeRecoveryCode } from './consume-recovery-code.js';

export async function verifySecondFactor(deps: Deps, user: UserRow, code: string): Promise<boolean> {
  if (user.otp_required !== 1) return false;
  if (await useTotp(deps, user, code)) return true;
  return consumeRecoveryCode(deps, user, code);
}
