// The two statements of the ingestion hot path as raw SQL, like the per-request token and project
// lookups: building them through Kysely's query builder cost more CPU than running them (measured:
// ~300 µs vs ~40 µs per request), and the endpoint's target is thousands of alerts per second.
import type { Transaction } from 'kysely';
import type { DB } from '../platform/db/schema.js';
import { asRaw, q, type Reads } from '../platform/db/reads.js';
import type { IntegrationRow } from './process-alert-payload.js';

export type IntegrationWithSettings = IntegrationRow & {
  create_issue: number | null;
  send_email: number | null;
  auto_close_incident: number | null;
  alerting_tool_active: number | null;
  alerting_tool_url: string | null;
};

export async function integrationByIdentifier(reads: Reads, fullPath: string, identifier: string): Promise<IntegrationWithSettings | undefined> {
  // Not cached: every accepted alert writes, which empties the read cache anyway.
  const rows = await reads.all<IntegrationWithSettings>(q`
    select i.*, s.create_issue, s.send_email, s.auto_close_incident, s.alerting_tool_active, s.alerting_tool_url
    from alert_management_http_integrations i
    join projects p on p.id = i.project_id
    left join project_incident_management_settings s on s.project_id = i.project_id
    where p.full_path_lower = ${fullPath.toLowerCase()} and i.active = 1 and i.endpoint_identifier = ${identifier}
    limit 1`);
  return rows[0];
}

/**
 * Count one more event on the open alert of this fingerprint, if there is one: inside the caller's
 * transaction, or (`trx` null, the hot path) as its own transaction through `Reads.run`.
 */
export async function groupIntoOpenAlert(reads: Reads, trx: Transaction<DB> | null, projectId: number, fingerprint: string, now: number): Promise<{ iid: number; title: string } | undefined> {
  // Keep the predicate `status <> 2` identical to the partial unique index alerts_open_fingerprint.
  const statement = q`
    update alert_management_alerts set events = events + 1, updated_at = ${now}
    where project_id = ${projectId} and fingerprint = ${fingerprint} and status <> 2
    returning iid, title`;
  const rows = trx ? (await asRaw<{ iid: number; title: string }>(statement).execute(trx)).rows : await reads.run<{ iid: number; title: string }>(statement);
  return rows[0];
}
