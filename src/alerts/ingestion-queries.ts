// The statements of alert ingestion as raw SQL, like the per-request token and project lookups:
// building them through Kysely's query builder cost more CPU than running them (measured: ~300 µs vs
// ~40 µs per request), and the endpoint's target is Alertmanager's own rate (docs/performance.md).
import { q, type Statement, type Tx, type Written } from '../platform/db/statements.js';
import type { Reads } from '../platform/db/reads.js';
import type { GroupCommit } from '../platform/db/group-commit.js';
import type { AlertsTable } from '../platform/db/tables/alerts.js';
import { RESOLVED } from './model.js';
import type { IntegrationRow } from './integration-row.js';

export type IntegrationWithSettings = IntegrationRow & {
  create_issue: number | null;
  send_email: number | null;
  auto_close_incident: number | null;
  alerting_tool_active: number | null;
  alerting_tool_url: string | null;
};

export async function integrationByIdentifier(reads: Reads, fullPath: string, identifier: string): Promise<IntegrationWithSettings | undefined> {
  // Not kept here: receive-alert.ts remembers integrations its own way.
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
 * The precondition of every write decided on a remembered integration (remembered-integrations.ts):
 * the database still holds the integration exactly as it was read (active, same key, mapping and
 * type) under the project path the request named. So a remembered integration can never count an
 * alert that its current state (deactivated, key reset, mapping or type changed, project renamed or
 * deleted) would refuse.
 */
export function integrationUnchanged(integration: IntegrationRow, fullPathLower: string): Statement {
  return q`
    select 1 from alert_management_http_integrations i join projects p on p.id = i.project_id
    where i.id = ${integration.id} and i.project_id = ${integration.project_id} and i.active = 1
      and i.token_sealed = ${integration.token_sealed} and i.payload_attribute_mapping = ${integration.payload_attribute_mapping}
      and i.type_identifier = ${integration.type_identifier} and p.full_path_lower = ${fullPathLower}`;
}

/**
 * One more event on the open alert of a fingerprint, if there is one. Like GitLab's
 * `increment!(:events)`, only the counter changes.
 */
function countOpenAlert(projectId: number, fingerprint: string): Statement {
  // Keep the predicate `status <> 2` identical to the partial unique index alerts_open_fingerprint.
  return q`
    update alert_management_event_counts set events = events + 1
    where alert_id = (select id from alert_management_alerts where project_id = ${projectId} and fingerprint = ${fingerprint} and status <> 2)
    returning alert_id as id,
      (select iid from alert_management_alerts a where a.id = alert_management_event_counts.alert_id) as iid,
      (select title from alert_management_alerts a where a.id = alert_management_event_counts.alert_id) as title`;
}

/**
 * The count for a remembered integration, only while `unchanged` (the guard above) holds, through
 * the group commit, which commits it with the other writes of the same turn before resolving. The
 * counted alert is the first row (none: nothing counted).
 */
export function countRememberedEvent(groupCommit: GroupCommit, projectId: number, fingerprint: string, unchanged: Statement): Promise<Written<AlertRef>> {
  return groupCommit.write<AlertRef>(countOpenAlert(projectId, fingerprint), unchanged);
}

/**
 * The same count on an alert known by id (the hot path: the alert was counted before), only while
 * it is still open: it counted when one row changed. No RETURNING: the caller knows the alert
 * (RETURNING cost a third of the statement).
 */
export function countKnownAlert(groupCommit: GroupCommit, alertId: number, unchanged: Statement): Promise<Written<never>> {
  return groupCommit.write(
    q`
    update alert_management_event_counts set events = events + 1
    where alert_id = ${alertId} and exists (select 1 from alert_management_alerts a where a.id = ${alertId} and a.status <> 2)`,
    unchanged,
  );
}

/** The same count in the caller's transaction, for a request that read its integration afresh. */
export async function countEvent(tx: Tx, projectId: number, fingerprint: string): Promise<AlertRef | undefined> {
  return (await tx.all<AlertRef>(countOpenAlert(projectId, fingerprint)))[0];
}

export interface AlertRef {
  id: number;
  iid: number;
  title: string;
}

/** Resolve the open alert of a fingerprint (a recovery alert), in the caller's transaction. */
export async function resolveOpenAlert(tx: Tx, projectId: number, fingerprint: string, endedAt: number, now: number): Promise<(AlertRef & { issue_id: number | null }) | undefined> {
  // The open alert by id from a subquery, not by the fingerprint in the UPDATE's own WHERE: SQLite
  // ran that form with RETURNING at ~17 µs even when no alert matched, against ~2 µs for this one
  // (measured on the bench's database; without RETURNING both were ~1.5 µs).
  const rows = await tx.all<AlertRef & { issue_id: number | null }>(q`
    update alert_management_alerts set status = ${RESOLVED}, ended_at = ${endedAt}, updated_at = ${now}
    where id = (select id from alert_management_alerts where project_id = ${projectId} and fingerprint = ${fingerprint} and status <> 2)
    returning id, iid, title, issue_id`);
  return rows[0];
}

/** The newest resolved alert of a fingerprint with exactly this end time: a recovery sent again. */
export async function recordedRecovery(tx: Tx, projectId: number, fingerprint: string, endedAt: number): Promise<AlertRef | undefined> {
  const rows = await tx.all<AlertRef>(q`
    select id, iid, title from alert_management_alerts
    where project_id = ${projectId} and fingerprint = ${fingerprint} and status = ${RESOLVED} and ended_at = ${endedAt}
    order by id desc limit 1`);
  return rows[0];
}

/** The columns a new alert is inserted with; `now` stamps created_at and updated_at. */
export type NewAlertRow = Omit<AlertsTable, 'id' | 'issue_id' | 'created_at' | 'updated_at'> & { now: number };

/**
 * Insert an alert with its counter at 1; undefined when another request or node opened an alert of
 * the same fingerprint first (the partial unique index), which the caller then counts this post on.
 */
export async function insertAlertRow(tx: Tx, row: NewAlertRow): Promise<AlertRef | undefined> {
  const [inserted] = await tx.all<AlertRef>(q`
    insert into alert_management_alerts (project_id, iid, status, severity, title, description, service, monitoring_tool, hosts,
      started_at, ended_at, fingerprint, environment_name, environment_id, issue_id, payload, created_at, updated_at)
    values (${row.project_id}, ${row.iid}, ${row.status}, ${row.severity}, ${row.title}, ${row.description}, ${row.service}, ${row.monitoring_tool}, ${row.hosts},
      ${row.started_at}, ${row.ended_at}, ${row.fingerprint}, ${row.environment_name}, ${row.environment_id}, null, ${row.payload}, ${row.now}, ${row.now})
    on conflict (project_id, fingerprint) where status <> 2 do nothing
    returning id, iid, title`);
  if (inserted) await tx.all(q`insert into alert_management_event_counts (alert_id, events) values (${inserted.id}, 1)`);
  return inserted;
}

/** GitLab links `gitlab_environment_name` to the project's environment of exactly that name (§16). */
export async function environmentIdByName(tx: Tx, projectId: number, name: string): Promise<number | null> {
  const [row] = await tx.all<{ id: number }>(q`select id from environments where project_id = ${projectId} and name = ${name} limit 1`);
  return row ? Number(row.id) : null;
}
