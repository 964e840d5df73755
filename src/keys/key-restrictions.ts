// GitLab's key restriction settings (ApplicationSetting#key_restriction_for, SshKeyValidator): a key
// type may be forbidden (-1), allowed at any size (0) or from a minimum size in bits. Asked when a key
// is added and again whenever it is used, since the settings may tighten after.
import type { ApplicationSettings } from '../application-settings/api.js';
import type { KeyType } from './ssh-public-key.js';

export const FORBIDDEN_KEY_VALUE = -1;

/** Gitlab::SSHPublicKey's supported types, in its order (the order of the "Must be …" sentence). */
const KEY_TYPES: readonly KeyType[] = ['rsa', 'dsa', 'ecdsa', 'ed25519', 'ecdsa_sk', 'ed25519_sk'];

export function restrictionFor(settings: ApplicationSettings, type: KeyType): number {
  return Number(settings[`${type}_key_restriction`]);
}

/** `RSA, ECDSA, or ED25519` (Rails' to_sentence with GitLab's connectors). */
function allowedTypesSentence(settings: ApplicationSettings): string {
  const allowed = KEY_TYPES.filter((type) => restrictionFor(settings, type) !== FORBIDDEN_KEY_VALUE).map((type) => type.toUpperCase());
  if (allowed.length <= 1) return allowed.join('');
  if (allowed.length === 2) return allowed.join(' or ');
  return `${allowed.slice(0, -1).join(', ')}, or ${allowed.at(-1)}`;
}

export type KeyRestriction = { ok: true } | { ok: false; forbiddenType: true; allowed: string } | { ok: false; forbiddenType: false; minimumBits: number };

export function checkKeyRestriction(settings: ApplicationSettings, key: { type: KeyType; bits: number }): KeyRestriction {
  const restriction = restrictionFor(settings, key.type);
  if (restriction === FORBIDDEN_KEY_VALUE) return { ok: false, forbiddenType: true, allowed: allowedTypesSentence(settings) };
  if (key.bits < restriction) return { ok: false, forbiddenType: false, minimumBits: restriction };
  return { ok: true };
}

/** The model error on `key` (SshKeyValidator), or null. */
export function keyValidationMessage(restriction: KeyRestriction): string | null {
  if (restriction.ok) return null;
  return restriction.forbiddenType ? `type is forbidden. Must be ${restriction.allowed}` : `must be at least ${restriction.minimumBits} bits`;
}

/** The refusal of a key's use over SSH (Gitlab::GitAccess ERROR_MESSAGES via KeyRestrictionValidator), or null. */
export function keyUseMessage(restriction: KeyRestriction): string | null {
  if (restriction.ok) return null;
  return restriction.forbiddenType ? `Your SSH key type is forbidden. Must be ${restriction.allowed}.` : `Your SSH key must be at least ${restriction.minimumBits} bits.`;
}
