// Integrations remembered by the endpoint between requests, so that the common alert (one more event
// of an open alert) needs no read before its write. Nothing here is trusted: a remembered row only
// lets the endpoint try a write guarded by that row (ingestion-queries.ts, IntegrationGuard), which does
// nothing unless the database still holds it; every other outcome reads the integration afresh.
// So the memory may be stale, shared by nothing, and lost at any time, on any node.
//
// Only URLs that name their integration are remembered: the legacy URLs reach "the oldest active
// integration of a type", which another integration's activation can change without touching it.
import type { Deps } from '../platform/deps.js';
import type { IntegrationRow } from './process-alert-payload.js';
import type { Endpoint } from './receive-alert.js';

const LIMIT = 1000;

// Per database (tests run many apps in one process, each with its own).
const byDatabase = new WeakMap<object, Map<string, IntegrationRow>>();

function memory(deps: Deps): Map<string, IntegrationRow> {
  let remembered = byDatabase.get(deps.db);
  if (!remembered) byDatabase.set(deps.db, (remembered = new Map()));
  return remembered;
}

export function rememberedIntegration(deps: Deps, fullPathLower: string, endpoint: Endpoint): IntegrationRow | undefined {
  return 'identifier' in endpoint ? memory(deps).get(`${fullPathLower}\n${endpoint.identifier}`) : undefined;
}

export function rememberIntegration(deps: Deps, fullPathLower: string, endpoint: Endpoint, integration: IntegrationRow): void {
  if (!('identifier' in endpoint)) return;
  const remembered = memory(deps);
  if (remembered.size >= LIMIT) remembered.clear();
  remembered.set(`${fullPathLower}\n${endpoint.identifier}`, integration);
}
