// Human durations as GitLab reads them (ChronicDuration): `3600`, `90 minutes`, `1h 30m`, `2 days`,
// `1 week`. Used by `timeout`, `artifacts:expire_in` (which also takes `never`) and `start_in`.

const UNITS: Array<[RegExp, number]> = [
  [/^(s|secs?|seconds?)$/, 1],
  [/^(m|mins?|minutes?)$/, 60],
  [/^(h|hrs?|hours?)$/, 3600],
  [/^(d|days?)$/, 86400],
  [/^(w|wks?|weeks?)$/, 604800],
  [/^(mo|mos|months?)$/, 2592000],
  [/^(y|yrs?|years?)$/, 31557600],
];

/** Seconds, or null when the text is no duration. */
export function parseDuration(text: unknown): number | null {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? Math.floor(text) : null;
  if (typeof text !== 'string') return null;
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '' || trimmed.length > 100) return null;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  let total = 0;
  let matched = false;
  const pattern = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*(?:and\s*|,\s*)?/gy;
  let match: RegExpExecArray | null;
  let end = 0;
  while ((match = pattern.exec(trimmed))) {
    const unit = UNITS.find(([re]) => re.test(match![2]));
    if (!unit) return null;
    total += Number(match[1]) * unit[1];
    matched = true;
    end = pattern.lastIndex;
  }
  if (!matched || end !== trimmed.length) return null;
  return Math.floor(total);
}
