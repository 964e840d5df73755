// `cache:` (GitLab's Entry::Cache / Entry::Caches): one hash or up to four, each with `key` (a
// string, or `files:` (one or two paths) with an optional `prefix`), `paths`, `untracked`, `policy`,
// `when`, `fallback_keys` and `unprotect`. Checked here; the key of `key:files` is computed when the
// pipeline is made (cache-keys.ts), and the runner gets the result and restores and saves the caches
// (GitLab Runner, or `kiln runner`: src/runner/cache.ts).

type Hash = Record<string, unknown>;
const isHash = (value: unknown): value is Hash => typeof value === 'object' && value !== null && !Array.isArray(value);

export const MAX_CACHES = 4;
const POLICIES = ['pull-push', 'push', 'pull'];
const WHENS = ['on_success', 'on_failure', 'always'];
const KEYS = ['key', 'untracked', 'paths', 'when', 'policy', 'fallback_keys', 'unprotect'];

export interface CiCache {
  /** A string key, or the files whose last commits make it. */
  key: string | { files: string[]; prefix?: string };
  paths: string[];
  untracked: boolean;
  policy: string;
  when: string;
  fallbackKeys: string[];
  unprotect: boolean;
}

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

function parseOne(value: unknown, at: string, errors: string[]): CiCache | null {
  if (!isHash(value)) {
    errors.push(`${at} config should be a hash`);
    return null;
  }
  const unknown = Object.keys(value).filter((key) => !KEYS.includes(key));
  if (unknown.length) errors.push(`${at} config contains unknown keys: ${unknown.join(', ')}`);
  let key: CiCache['key'] = 'default';
  if (value.key !== undefined && value.key !== null) {
    if (typeof value.key === 'string' || typeof value.key === 'number') {
      key = String(value.key);
      if (key.includes('/') || /%2F/i.test(key)) errors.push(`${at}:key config cannot contain the "/" character`);
      else if (key === '.' || key === '..' || /^%2E%2E?$/i.test(key)) errors.push(`${at}:key config cannot be "." or ".."`);
    } else if (isHash(value.key)) {
      const files = value.key.files;
      if (!strings(files) || files.length < 1 || files.length > 2) errors.push(`${at}:key:files config has to be an array of one or two strings`);
      else if (value.key.prefix !== undefined && typeof value.key.prefix !== 'string') errors.push(`${at}:key:prefix config should be a string`);
      else key = { files, ...(typeof value.key.prefix === 'string' ? { prefix: value.key.prefix } : {}) };
    } else errors.push(`${at}:key config should be a hash, a string or a symbol`);
  }
  const paths = value.paths === undefined ? [] : value.paths;
  if (!strings(paths)) errors.push(`${at}:paths config should be an array of strings`);
  const fallbackKeys = value.fallback_keys === undefined ? [] : value.fallback_keys;
  if (!strings(fallbackKeys) || fallbackKeys.length > 5) errors.push(`${at}:fallback_keys config should be an array of strings of at most 5 keys`);
  const policy = value.policy === undefined ? 'pull-push' : value.policy;
  if (typeof policy !== 'string' || (!POLICIES.includes(policy) && !policy.includes('$'))) errors.push(`${at} policy should be pull-push, push, or pull, or a variable`);
  const when = value.when === undefined ? 'on_success' : value.when;
  if (typeof when !== 'string' || !WHENS.includes(when)) errors.push(`${at} when should be on_success, on_failure or always`);
  for (const flag of ['untracked', 'unprotect'] as const) {
    if (value[flag] !== undefined && typeof value[flag] !== 'boolean') errors.push(`${at} ${flag} should be a boolean value`);
  }
  return {
    key, paths: strings(paths) ? paths : [], untracked: value.untracked === true, policy: String(policy), when: String(when),
    fallbackKeys: strings(fallbackKeys) ? fallbackKeys : [], unprotect: value.unprotect === true,
  };
}

/** A job's caches (its own `cache:` or the default's), null without any. */
export function parseCaches(value: unknown, location: string, errors: string[]): CiCache[] | null {
  if (value === undefined || value === null) return null;
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_CACHES) {
    errors.push(`${location}:cache config no more than ${MAX_CACHES} caches can be created`);
    return null;
  }
  const caches = list.map((item) => parseOne(item, `${location}:cache`, errors));
  return caches.every((cache): cache is CiCache => cache !== null) ? caches : null;
}
