// The small value rules shared by the payload parsers (GitLab's alert management documentation): GitLab uses a
// value only when it is present (a blank string is missing), truncates with Ruby's String#truncate,
// and parses times leniently.

/** A scalar as text, or undefined when missing or blank (Rails' `presence`). */
export function presentString(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return undefined;
  return value.trim() === '' ? undefined : value;
}

/** Ruby's String#truncate: at most `max` characters, the last three replaced by `...` when cut. */
export function truncate(value: string, max: number): string {
  // UTF-16 units are never fewer than characters: a short string needs no counting (hot path).
  if (value.length <= max) return value;
  const chars = Array.from(value);
  if (chars.length <= max) return value;
  return `${chars.slice(0, max - 3).join('')}...`;
}

const EPOCH_MS = /^\d{11,16}$/;

/**
 * A time as epoch milliseconds, or undefined when missing or unparsable. Accepts ISO 8601 and the
 * other forms Date.parse reads (Ruby's Time.parse is similarly lenient) and epoch milliseconds
 * (later GitLab's `time_with_epoch_millis`). Nanosecond fractions (Alertmanager) are cut to ms.
 */
export function parseTime(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.trunc(value) : undefined;
  const text = presentString(value);
  if (text === undefined) return undefined;
  if (EPOCH_MS.test(text.trim())) return Number(text.trim());
  const normalised = text.trim().replace(/(\.\d{3})\d+/, '$1');
  const ms = Date.parse(normalised);
  return Number.isNaN(ms) ? undefined : ms;
}

const HOSTS_MAX = 255;

/**
 * `hosts` as a string or array, flattened; the list is cut so the hosts' total length is at most
 * 255 characters (the last one cut short, no ellipsis), as GitLab's Alert model does.
 */
export function parseHosts(value: unknown): string[] {
  const flat = (Array.isArray(value) ? value.flat(Infinity) : [value]).map(presentString).filter((host): host is string => host !== undefined);
  if (flat.reduce((length, host) => length + host.length, 0) <= HOSTS_MAX) return flat;
  const hosts: string[] = [];
  let budget = HOSTS_MAX;
  for (const host of flat) {
    if (budget <= 0) break;
    const chars = Array.from(host);
    hosts.push(chars.slice(0, budget).join(''));
    budget -= Math.min(chars.length, budget);
  }
  return hosts;
}

/** Follow a mapping path (strings are keys, integers are array indexes) into a payload. */
export function dig(payload: unknown, path: ReadonlyArray<string | number>): unknown {
  let current: unknown = payload;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      const index = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : NaN;
      current = Number.isInteger(index) ? current[index] : undefined;
    } else {
      current = (current as Record<string, unknown>)[String(segment)];
    }
  }
  return current;
}

/** JSON with object keys sorted at every level, so equal payloads give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Blank in Rails' sense: null, empty or whitespace string, empty array or object. */
export function isBlank(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}
