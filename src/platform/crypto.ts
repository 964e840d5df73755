import * as nodeCrypto from 'node:crypto';
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// Node's one-shot `crypto.hash` (20.12+) makes no Hash object. Those objects carry native handles
// that every young-generation GC has to process: with one per API request (the token digest),
// scavenges took 5-6 ms instead of 0.2 and the collector ~18% of a request's CPU (docs/performance.md).
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** A hex digest without a Hash object where Node allows it. */
export function hexDigest(algorithm: 'sha1' | 'sha256', value: string): string {
  return oneShot ? oneShot(algorithm, value, 'hex') : createHash(algorithm).update(value).digest('hex');
}

/** Tokens, codes and client secrets are stored as SHA-256 digests and looked up by digest (docs/architecture.md, Data). */
export function sha256Hex(value: string): string {
  return hexDigest('sha256', value);
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Constant-time comparison of two strings. Equal lengths are compared byte for byte in constant time;
 * a different length answers false after the same amount of work on the given value, so the time
 * says nothing about the expected one but its length (which secrets here make public anyway:
 * fixed-size tokens and digests). Cheap enough for hot paths such as the alert endpoint.
 */
export function safeEqual(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/**
 * Values that must be shown again (alert keys, OTP secrets, tracker tokens) are encrypted with
 * AES-256-GCM under the instance key. Format: base64url(iv).base64url(tag).base64url(ciphertext).
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('instance key must be 32 bytes');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
  }

  open(sealed: string): string {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}
