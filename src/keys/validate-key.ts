// The validations of GitLab's Key model shared by users' keys and deploy keys (app/models/key.rb,
// SshKeyValidator): a title of at most 255 characters, a key of at most 5,000 that starts like an
// OpenSSH public key and can be fingerprinted, allowed by the restriction settings, not yet expired.
import type { Deps } from '../platform/deps.js';
import { ParamError, ValidationError } from '../platform/errors.js';
import { readApplicationSettings } from '../application-settings/api.js';
import { parseSshPublicKey, sanitizeKeyText, type SshPublicKey } from './ssh-public-key.js';
import { checkKeyRestriction, keyValidationMessage } from './key-restrictions.js';

export const KEY_USAGE_TYPES = ['auth', 'signing', 'auth_and_signing'] as const;

export interface KeyInput {
  title: string;
  key: string;
  /** Epoch ms, or null for a key that never expires. */
  expiresAt: number | null;
}

const KEY_FORMAT = /^(ssh|ecdsa|sk)-/;

/** The parsed key, or a ValidationError with every problem GitLab's model reports. */
export async function validateKey(deps: Deps, input: KeyInput): Promise<SshPublicKey> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const title = input.title.trim();
  if (title === '') add('title', "can't be blank");
  else if (title.length > 255) add('title', 'is too long (maximum is 255 characters)');
  const text = sanitizeKeyText(input.key);
  let parsed: SshPublicKey | null = null;
  if (text === '') add('key', "can't be blank");
  else if (text.length > 5000) add('key', 'is too long (maximum is 5000 characters)');
  else if (!KEY_FORMAT.test(text)) add('key', 'is invalid');
  else {
    parsed = parseSshPublicKey(text);
    if (!parsed) add('fingerprint_sha256', 'cannot be generated');
  }
  if (parsed) {
    const problem = keyValidationMessage(checkKeyRestriction(await readApplicationSettings(deps.db), parsed));
    if (problem) add('key', problem);
  }
  if (input.expiresAt !== null && input.expiresAt <= deps.clock.now()) add('key', 'has expired');
  if (Object.keys(errors).length || !parsed) throw new ValidationError(errors);
  return parsed;
}

/** `expires_at` as the API takes it: an ISO 8601 date or time; null for none; undefined when unreadable. */
export function expiryOf(value: string | undefined | null): number | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  const time = Date.parse(/^\d{4}-\d\d-\d\d$/.test(value) ? `${value}T00:00:00.000Z` : value);
  return Number.isNaN(time) ? undefined : time;
}

/** An API's `expires_at`: none, or a date; anything else is a 400 naming the parameter. */
export function expiryParam(value: string | undefined): number | null {
  const expiry = expiryOf(value);
  if (expiry === undefined) throw new ParamError('expires_at is invalid');
  return expiry;
}
