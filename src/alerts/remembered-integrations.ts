// Integrations remembered by the endpoint between requests, so that the common alert (one more event
// of an open alert) needs no read before its write. Nothing here is trusted: a remembered row only
// lets the endpoint try writes under a precondition (ingestion-queries.ts, integrationUnchanged)
// that holds only while the database still holds that row; every other outcome reads the
// integration afresh. With it, the open alerts counted through it, by fingerprint, so that the next
// count is a write by primary key; that write also holds only while the alert is still open.
// So the memory may be stale, shared by nothing, and lost at any time, on any node.
//
// Only URLs that name their integration are remembered: the legacy URLs reach "the oldest active
// integration of a type", which another integration's activation can change without touching it.
import type { Deps } from '../platform/deps.js';
import { BoundedMap } from '../platform/bounded-map.js';
import { cacheSlot } from '../platform/instance-caches.js';
import type { Statement } from '../platform/db/statements.js';
import { integrationUnchanged, type AlertRef } from './ingestion-queries.js';
import type { OpenAlertObserver } from './process-alert-payload.js';
import type { IntegrationRow } from './integration-row.js';
import type { AlertResponse, Endpoint } from './alert-request.js';

const INTEGRATIONS_LIMIT = 1000;
const OPEN_ALERTS_LIMIT = 10_000;

export interface RememberedIntegration {
  integration: IntegrationRow;
  /** The precondition of the writes decided on this memory (one object: checked once per batch). */
  unchanged: Statement;
  /**
   * Open alerts by fingerprint, as last counted: a hint, checked by every write made on it. Null:
   * this process resolved the fingerprint's alert, so the next post goes straight to the full path.
   */
  openAlerts: BoundedMap<string, RememberedAlert | null>;
}

export interface RememberedAlert {
  id: number;
  /** The endpoint's answer for one more event of this alert (iid and title never change). */
  answer: AlertResponse;
}

// Per app (tests run many apps in one process, each with its own database).
const REMEMBERED = cacheSlot('alerts.remembered-integrations', () => new BoundedMap<string, RememberedIntegration>(INTEGRATIONS_LIMIT));

function memory(deps: Deps): BoundedMap<string, RememberedIntegration> {
  return deps.caches.of(REMEMBERED);
}

/** Only URLs that name their integration have a key. */
function keyOf(fullPathLower: string, endpoint: Endpoint): string | undefined {
  return 'identifier' in endpoint ? `${fullPathLower}\n${endpoint.identifier}` : undefined;
}

export function rememberedIntegration(deps: Deps, fullPathLower: string, endpoint: Endpoint): RememberedIntegration | undefined {
  const key = keyOf(fullPathLower, endpoint);
  return key === undefined ? undefined : memory(deps).get(key);
}

/** The same precondition: the same statement with the same values (the columns it compares). */
function sameCondition(a: Statement, b: Statement): boolean {
  return a.strings === b.strings && a.values.length === b.values.length && a.values.every((value, index) => value === b.values[index]);
}

/** Remember an integration just read; its open alerts are kept while the precondition is unchanged. */
export function rememberIntegration(deps: Deps, fullPathLower: string, endpoint: Endpoint, integration: IntegrationRow): RememberedIntegration | undefined {
  const key = keyOf(fullPathLower, endpoint);
  if (key === undefined) return undefined;
  const remembered = memory(deps);
  const unchanged = integrationUnchanged(integration, fullPathLower);
  const known = remembered.get(key);
  if (known && sameCondition(known.unchanged, unchanged)) return known;
  const entry: RememberedIntegration = { integration, unchanged, openAlerts: new BoundedMap(OPEN_ALERTS_LIMIT) };
  remembered.set(key, entry);
  return entry;
}

function setOpenAlert(remembered: RememberedIntegration, fingerprint: string, alert: RememberedAlert | null): void {
  remembered.openAlerts.set(fingerprint, alert);
}

/** What the full path learns about open alerts, kept for the next posts of the same fingerprints. */
export function openAlertObserver(remembered: RememberedIntegration): OpenAlertObserver {
  return {
    opened: (fingerprint, alert) => rememberOpenAlert(remembered, fingerprint, alert),
    resolved: (fingerprint) => setOpenAlert(remembered, fingerprint, null),
  };
}

export function rememberOpenAlert(remembered: RememberedIntegration, fingerprint: string, alert: AlertRef): RememberedAlert {
  const body = [{ iid: alert.iid, title: alert.title }];
  // PostgreSQL returns bigint ids as text.
  const entry: RememberedAlert = { id: Number(alert.id), answer: { status: 200, body, json: JSON.stringify(body) } };
  setOpenAlert(remembered, fingerprint, entry);
  return entry;
}
