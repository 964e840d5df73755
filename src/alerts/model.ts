// Alert statuses and severities as data (GitLab's alert management documentation): stored as GitLab's small
// integers, presented as GitLab's words. Sorting by the stored number puts the most critical first.

export const STATUSES = ['triggered', 'acknowledged', 'resolved', 'ignored'] as const;
export type AlertStatus = (typeof STATUSES)[number];
export const STATUS_CODE: Record<AlertStatus, number> = { triggered: 0, acknowledged: 1, resolved: 2, ignored: 3 };
export const RESOLVED = STATUS_CODE.resolved;

export const STATUS_DESCRIPTIONS: Record<AlertStatus, string> = {
  triggered: 'Investigation has not started',
  acknowledged: 'Someone is actively investigating the problem',
  resolved: 'No further work is required',
  ignored: 'No action will be taken on the alert',
};

/** docs/decisions.md: `unknown` is a valid severity (the specification lists it), unlike GitLab's parser. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const SEVERITY_CODE: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4, unknown: 5 };

export function statusName(code: number): AlertStatus {
  return STATUSES[code] ?? 'triggered';
}

export function severityName(code: number): Severity {
  return SEVERITIES[code] ?? 'critical';
}

export function titleCase(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * Every status change is allowed from any status (GitLab's Escalatable state machine); entering
 * `resolved` stamps `ended_at`, leaving it clears `ended_at` (§20).
 */
export function transition(to: AlertStatus, now: number, endedAt?: number | null): { status: number; ended_at: number | null } {
  return to === 'resolved' ? { status: RESOLVED, ended_at: endedAt ?? now } : { status: STATUS_CODE[to], ended_at: null };
}
