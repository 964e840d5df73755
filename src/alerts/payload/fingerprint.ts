// Fingerprints group occurrences of one alert (GitLab's alert management documentation "Fingerprint", §18).
import { hexDigest } from '../../platform/crypto.js';
import { BoundedMap } from '../../platform/bounded-map.js';
import { canonicalJson, isBlank, presentString } from './values.js';

export function sha1Hex(text: string): string {
  return hexDigest('sha1', text);
}

/**
 * An explicit `fingerprint`: a scalar is hashed as its text; an array is flattened and its elements'
 * texts concatenated with no separator. Blank gives no fingerprint (no grouping).
 */
export function explicitFingerprint(value: unknown): string | null {
  if (Array.isArray(value)) {
    const joined = value
      .flat(Infinity)
      .map((item) => (item === null || item === undefined ? '' : typeof item === 'object' ? canonicalJson(item) : String(item)))
      .join('');
    return joined.trim() === '' ? null : sha1Hex(joined);
  }
  const text = presentString(value);
  return text === undefined ? null : scalarFingerprint(text);
}

// Senders repeat the same few fingerprints (the alert endpoint's hot path): hash each once. A pure
// function of the text, the same in every app: kept once per process (bounded-map.ts).
const scalarFingerprints = new BoundedMap<string, string>(10_000);

function scalarFingerprint(text: string): string {
  let hashed = scalarFingerprints.get(text);
  if (hashed === undefined) {
    hashed = sha1Hex(text);
    scalarFingerprints.set(text, hashed);
  }
  return hashed;
}

/** Keys that differ between occurrences of the same alert and so never take part in grouping. */
export const VOLATILE_KEYS = ['start_time', 'end_time', 'hosts'] as const;

/**
 * The paid tier's payload-derived fingerprint: the whole payload minus the volatile keys (and minus
 * the values that a custom mapping routes to those fields). GitLab hashes Ruby's Hash#to_s, which is
 * not portable; Kiln hashes canonical JSON (sorted keys) instead (§16 recommendation).
 */
export function payloadFingerprint(payload: Record<string, unknown>, volatilePaths: Array<ReadonlyArray<string | number>> = []): string | null {
  const reduced: Record<string, unknown> = structuredClone(payload);
  for (const key of VOLATILE_KEYS) delete reduced[key];
  for (const path of volatilePaths) removePath(reduced, path);
  if (Object.values(reduced).every(isBlank)) return null;
  return sha1Hex(canonicalJson(reduced));
}

function removePath(target: unknown, path: ReadonlyArray<string | number>): void {
  if (path.length === 0) return;
  let current: unknown = target;
  for (const segment of path.slice(0, -1)) {
    if (current === null || typeof current !== 'object') return;
    current = (current as Record<string, unknown>)[String(segment)];
  }
  if (current !== null && typeof current === 'object' && !Array.isArray(current)) delete (current as Record<string, unknown>)[String(path[path.length - 1])];
}
