// Alertmanager webhook payloads (GitLab's alert management documentation; docs/clients.md): each element of
// `alerts` is its own alert, parsed with GitLab's Prometheus mapping. Alertmanager's own
// `fingerprint` is ignored, as GitLab does.
import type { Severity } from '../model.js';
import { sha1Hex } from './fingerprint.js';
import type { NormalizedAlert } from './normalized-alert.js';
import { parseTime, presentString, truncate } from './values.js';

const WEBHOOK_KEYS = ['version', 'groupKey', 'status', 'receiver', 'groupLabels', 'commonLabels', 'commonAnnotations', 'externalURL', 'alerts'];

/** GitLab detects the webhook by shape: every key present and `version` "4" (§15). */
export function isAlertmanagerWebhook(body: unknown): body is { alerts: unknown[] } & Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  return WEBHOOK_KEYS.every((key) => key in record) && record.version === '4' && Array.isArray(record.alerts);
}

const SEVERITY_WORDS: Record<string, Severity> = {};
for (const [severity, words] of Object.entries({
  critical: ['critical', 's1', 'p1', 'emergency', 'fatal'],
  high: ['high', 's2', 'p2', 'major', 'page'],
  medium: ['medium', 's3', 'p3', 'error', 'alert'],
  low: ['low', 's4', 'p4', 'warn', 'warning', 'minor'],
  info: ['info', 's5', 'p5', 'debug', 'information', 'notice'],
})) {
  for (const word of words) SEVERITY_WORDS[word] = severity as Severity;
}

export function prometheusSeverity(value: unknown): Severity {
  return SEVERITY_WORDS[presentString(value)?.toLowerCase() ?? ''] ?? 'critical';
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The `g0.expr` query parameter of the generator URL: the alert rule's expression. */
export function fullQuery(generatorUrl: unknown): string {
  const text = presentString(generatorUrl);
  if (!text) return '';
  try {
    return new URL(text).searchParams.get('g0.expr') ?? '';
  } catch {
    return '';
  }
}

/** One Alertmanager alert, or null when it lacks a title or a start time (GitLab skips those). */
export function parsePrometheusAlert(alert: unknown, now: number): NormalizedAlert | null {
  const a = record(alert);
  const labels = record(a.labels);
  const annotations = record(a.annotations);
  const title = presentString(annotations.title) ?? presentString(annotations.summary) ?? presentString(labels.alertname);
  const startsAtRaw = presentString(a.startsAt);
  if (title === undefined || startsAtRaw === undefined) return null;
  const resolved = a.status === 'resolved';
  const gitlabAlertId = presentString(labels.gitlab_alert_id);
  const fingerprint = gitlabAlertId
    ? sha1Hex(`${gitlabAlertId}/${startsAtRaw}`)
    : sha1Hex(`${startsAtRaw}/${title}/${fullQuery(a.generatorURL)}`);
  const description = presentString(annotations.description);
  return {
    title: truncate(title, 200),
    description: description === undefined ? null : truncate(description, 1000),
    service: null,
    monitoringTool: 'Prometheus',
    hosts: [],
    severity: prometheusSeverity(labels.severity),
    startedAt: parseTime(startsAtRaw) ?? now,
    endedAt: resolved ? (parseTime(a.endsAt) ?? now) : null,
    fingerprint,
    environmentName: presentString(labels.gitlab_environment_name)?.trim() ?? null,
    payload: alert,
  };
}
