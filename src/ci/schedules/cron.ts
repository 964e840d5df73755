// A schedule's cron pattern in its time zone (GitLab's Gitlab::Ci::CronParser, here with croner):
// five fields (minute hour day-of-month month day-of-week) or a nickname such as `@daily`, in an IANA
// time zone (`UTC` by default). Croner also reads a seconds field; GitLab's patterns have none, and a
// per-second schedule would be a pipeline flood, so six fields are refused.
import { Cron } from 'croner';

export const DEFAULT_TIMEZONE = 'UTC';

export function cronValid(pattern: string): boolean {
  const trimmed = pattern.trim();
  if (trimmed === '' || (!trimmed.startsWith('@') && trimmed.split(/\s+/).length !== 5)) return false;
  try {
    new Cron(trimmed, { paused: true });
    return true;
  } catch {
    return false;
  }
}

export function timezoneValid(timezone: string): boolean {
  if (timezone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The first occurrence strictly after `after` (epoch ms), or null for a pattern that never fires again. */
export function nextOccurrence(pattern: string, timezone: string, after: number): number | null {
  const next = new Cron(pattern.trim(), { paused: true, timezone }).nextRun(new Date(after));
  return next ? next.getTime() : null;
}
