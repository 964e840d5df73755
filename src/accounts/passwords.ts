// Passwords with argon2id (a slow KDF; ~17 ms per hash here, see docs/performance.md).
import { hash, verify } from '@node-rs/argon2';

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** GitLab's minimum password length. */
export const MIN_PASSWORD_LENGTH = 8;

/** GitLab's maximum password length (Devise's password_length, 8..128). */
export const MAX_PASSWORD_LENGTH = 128;
