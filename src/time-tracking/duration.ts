// Durations as GitLab's TimeTrackingFormatter reads and writes them: 1mo = 4w, 1w = 5d, 1d = 8h, a
// bare number is hours, and `3h 30m` is how a total is shown.
const HOUR = 3600;
const UNITS: Array<[RegExp, number]> = [
  [/^(mo|mos|months?)$/, 4 * 5 * 8 * HOUR],
  [/^(w|wks?|weeks?)$/, 5 * 8 * HOUR],
  [/^(d|days?)$/, 8 * HOUR],
  [/^(h|hrs?|hours?)$/, HOUR],
  [/^(m|mins?|minutes?)$/, 60],
  [/^(s|secs?|seconds?)$/, 1],
];
/** Past this a duration would not fit GitLab's integer columns. */
const MAX_SECONDS = 2_147_483_647;

/**
 * Seconds of a duration such as `3h 30m`, `1w 2d` or `2` (hours); null when it is none. With
 * `signed`, a leading `-` makes it negative (spent time to subtract).
 */
export function parseTimeTracking(text: string, options: { signed?: boolean } = {}): number | null {
  let trimmed = text.trim().toLowerCase();
  const negative = options.signed === true && trimmed.startsWith('-');
  if (negative) trimmed = trimmed.slice(1).trim();
  if (trimmed === '' || trimmed.length > 100) return null;
  const pattern = /(\d+(?:\.\d+)?)\s*([a-z]*)\s*,?\s*/y;
  let total = 0;
  let end = 0;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(trimmed))) {
    const size = match[2] === '' ? HOUR : UNITS.find(([unit]) => unit.test(match![2]))?.[1];
    if (size === undefined) return null;
    total += Number(match[1]) * size;
    end = pattern.lastIndex;
  }
  if (end === 0 || end !== trimmed.length) return null;
  const seconds = Math.round(total);
  if (seconds > MAX_SECONDS) return null;
  return negative ? -seconds : seconds;
}

/** Seconds as GitLab's human durations (`3h 30m`), null for none. */
export function humanDuration(seconds: number): string | null {
  if (seconds <= 0) return null;
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of [['mo', 4 * 5 * 8 * HOUR], ['w', 5 * 8 * HOUR], ['d', 8 * HOUR], ['h', HOUR], ['m', 60], ['s', 1]] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join(' ');
}

/** A change of spent time as hooks show it: `1h 30m`, `-30m`, null for none. */
export function humanTimeChange(seconds: number): string | null {
  const human = humanDuration(Math.abs(seconds));
  return human === null || seconds > 0 ? human : `-${human}`;
}

/** GitLab's IssuableTimeStats entity. */
export function timeStatsEntity(timeEstimate: number, totalTimeSpent: number) {
  return {
    time_estimate: timeEstimate,
    total_time_spent: totalTimeSpent,
    human_time_estimate: humanDuration(timeEstimate),
    human_total_time_spent: humanDuration(totalTimeSpent),
  };
}
