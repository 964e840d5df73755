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
import type { Statement } from '../platform/db/reads.js';
import { integrationUnchanged, type AlertRef } from './ingestion-queries.js';
import type { IntegrationRow, OpenAlertObserver } from './process-alert-payload.js';
import type { AlertResponse, Endpoint } from './receive-alert.js';

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
  openAlerts: Map<string, RememberedAlert | null>;
}

export interface RememberedAlert {
  id: number;
  /** The endpoint's answer for one more event of this alert (iid and title never change). */
  answer: AlertResponse;
}

// Per database (tests run many apps in one process, each with its own).
const byDatabase = new WeakMap<object, Map<string, RememberedIntegration>>();

function memory(deps: Deps): Map<string, RememberedIntegration> {
  let remembered = byDatabase.get(deps.db);
  if (!remembered) byDatabase.set(deps.db, (remembered = new Map()));
  return remembered;
}

export function rememberedIntegration(deps: Deps, fullPathLower: string, endpoint: Endpoint): RememberedIntegration | undefined {
  return 'identifier' in endpoint ? memory(deps).get(`${fullPathLower}\n${endpoint.identifier}`) : undefined;
}

/** The columns `integrationUnchanged` compares: while they are the same, so is the memory. */
function sameGuard(a: IntegrationRow, b: IntegrationRow): boolean {
  return a.id === b.id && a.project_id === b.project_id && a.active === b.active && a.token_sealed === b.token_sealed && a.payload_attribute_mapping === b.payload_attribute_mapping && a.type_identifier === b.type_identifier;
}

/** Remember an integration just read; its open alerts are kept while it is unchanged. */
export function rememberIntegration(deps: Deps, fullPathLower: string, endpoint: Endpoint, integration: IntegrationRow): RememberedIntegration | undefined {
  if (!('identifier' in endpoint)) return undefined;
  const remembered = memory(deps);
  const key = `${fullPathLower}\n${endpoint.identifier}`;
  const known = remembered.get(key);
  if (known && sameGuard(known.integration, integration)) return known;
  if (remembered.size >= INTEGRATIONS_LIMIT) remembered.clear();
  const entry: RememberedIntegration = { integration, unchanged: integrationUnchanged(integration, fullPathLower), openAlerts: new Map() };
  remembered.set(key, entry);
  return entry;
}

/** What the full path learns about open alerts, kept for the next posts of the same fingerprints. */
export function openAlertObserver(remembered: RememberedIntegration): OpenAlertObserver {
  return {
    opened: (fingerprint, alert) => rememberOpenAlert(remembered, fingerprint, alert),
    resolved: (fingerprint) => remembered.openAlerts.set(fingerprint, null),
  };
}

export function rememberOpenAlert(remembered: RememberedIntegration, fingerprint: string, alert: AlertRef): RememberedAlert {
  if (remembered.openAlerts.size >= OPEN_ALERTS_LIMIT) remembered.openAlerts.clear();
  const body = [{ iid: alert.iid, title: alert.title }];
  // PostgreSQL returns bigint ids as text.
  const entry: RememberedAlert = { id: Number(alert.id), answer: { status: 200, body, json: JSON.stringify(body) } };
  remembered.openAlerts.set(fingerprint, entry);
  return entry;
}
