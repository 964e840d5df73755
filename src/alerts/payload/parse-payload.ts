// Which parser a payload gets (GitLab's alert management documentation): an Alertmanager webhook is split into
// its alerts on any integration URL; everything else is one generic alert.
import type { Tier } from '../../config.js';
import { genericGroupingKey, parseGenericAlert, type GroupingKey } from './generic.js';
import type { AttributeMapping } from './mapping.js';
import type { NormalizedAlert } from './normalized-alert.js';
import { isAlertmanagerWebhook, parsePrometheusAlert } from './prometheus.js';

export interface ParseContext {
  now: number;
  tier: Tier;
  mapping: AttributeMapping | null;
}

export interface ParsedPayload {
  alerts: NormalizedAlert[];
  /** Alertmanager alerts without a title or start time, which GitLab skips. */
  skipped: number;
  source: 'generic' | 'prometheus';
}

function genericOptions(context: ParseContext) {
  const paid = context.tier !== 'free';
  return { now: context.now, payloadFingerprints: paid, mapping: paid ? context.mapping : null };
}

/**
 * The grouping key of a payload that is one alert, or null for a webhook of several (or of one that
 * GitLab would skip): what the hot path needs, without parsing the rest.
 */
export function parseGroupingKey(body: Record<string, unknown>, context: ParseContext): GroupingKey | null {
  if (!isAlertmanagerWebhook(body)) return genericGroupingKey(body, genericOptions(context));
  return body.alerts.length === 1 ? parsePrometheusAlert(body.alerts[0], context.now) : null;
}

export function parsePayload(body: Record<string, unknown>, context: ParseContext): ParsedPayload {
  if (isAlertmanagerWebhook(body)) {
    const parsed = body.alerts.map((alert) => parsePrometheusAlert(alert, context.now));
    const alerts = parsed.filter((alert): alert is NormalizedAlert => alert !== null);
    return { alerts, skipped: parsed.length - alerts.length, source: 'prometheus' };
  }
  const alert = parseGenericAlert(body, genericOptions(context));
  return { alerts: [alert], skipped: 0, source: 'generic' };
}
