// Read queries for alerts and integrations, always through their project (docs/architecture.md).
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import { integrationByIdentifier } from './ingestion-queries.js';
import type { AlertsTable } from '../platform/db/tables/alerts.js';
import { RecordNotFoundError } from '../platform/errors.js';
import { STATUS_CODE, STATUSES, type AlertStatus } from './model.js';
import type { IntegrationRow } from './integration-row.js';
import { DEFAULT_INCIDENT_SETTINGS, type IncidentSettings } from './incident-settings.js';

/** An alert as stored. */
export type AlertRecord = Selectable<AlertsTable>;
/**
 * An alert as shown: with its event counter (kept in its own narrow table, see the migration) and
 * the current name of its linked environment, null once that environment is gone (GitLab nullifies
 * the link when an environment is deleted).
 */
export type AlertRow = AlertRecord & { events: number; linked_environment_name: string | null };

/** Alerts with their event counters and linked environments. */
function alertsWithEvents(executor: Executor) {
  return executor
    .selectFrom('alert_management_alerts')
    .innerJoin('alert_management_event_counts', 'alert_management_event_counts.alert_id', 'alert_management_alerts.id')
    .selectAll('alert_management_alerts')
    .select('alert_management_event_counts.events')
    // A scalar subquery, not a join: the alert filters and sorts name columns environments have too.
    .select((eb) => eb.selectFrom('environments').select('environments.name').whereRef('environments.id', '=', 'alert_management_alerts.environment_id').as('linked_environment_name'));
}

export const ALERT_SORTS = ['started_at_asc', 'started_at_desc', 'ended_at_asc', 'ended_at_desc', 'created_at_asc', 'created_at_desc', 'updated_at_asc', 'updated_at_desc', 'event_count_asc', 'event_count_desc', 'severity_asc', 'severity_desc', 'status_asc', 'status_desc'] as const;
export type AlertSort = (typeof ALERT_SORTS)[number];

export interface AlertFilters {
  /** One status, `open` (triggered or acknowledged) or `all`. */
  status?: AlertStatus | 'open' | 'all';
  search?: string;
  sort?: AlertSort;
}

function likePattern(search: string): string {
  return `%${search.toLowerCase()}%`;
}

export function projectAlertsQuery(deps: Deps, projectId: number, filters: AlertFilters) {
  let query = alertsWithEvents(deps.db).where('project_id', '=', projectId);
  if (filters.status === 'open') query = query.where('status', 'in', [STATUS_CODE.triggered, STATUS_CODE.acknowledged]);
  else if (filters.status && filters.status !== 'all') query = query.where('status', '=', STATUS_CODE[filters.status]);
  if (filters.search) {
    // GitLab searches title, description, service and monitoring tool.
    const pattern = likePattern(filters.search);
    query = query.where((eb) =>
      eb.or((['title', 'description', 'service', 'monitoring_tool'] as const).map((column) => eb(eb.fn('lower', [column]), 'like', pattern))),
    );
  }
  const sort = filters.sort ?? 'started_at_desc';
  const match = /^(.*)_(asc|desc)$/.exec(sort)!;
  const direction = match[2] as 'asc' | 'desc';
  // Severity and status are stored with 0 as the most urgent, so GitLab's "desc" is ascending here.
  const inverted = direction === 'asc' ? 'desc' : 'asc';
  switch (match[1]) {
    case 'severity':
      return query.orderBy('severity', inverted).orderBy('id', 'desc');
    case 'status':
      return query.orderBy('status', inverted).orderBy('id', 'desc');
    case 'event_count':
      return query.orderBy('events', direction).orderBy('id', direction);
    default:
      return query.orderBy(match[1] as 'started_at', direction).orderBy('id', direction);
  }
}

/** GitLab's alertManagementAlertStatusCounts: per status, plus `open` and `all`. */
export async function alertStatusCounts(executor: Executor, projectId: number, search?: string): Promise<Record<AlertStatus | 'open' | 'all', number>> {
  let query = executor.selectFrom('alert_management_alerts').select(['status', executor.fn.countAll<number>().as('n')]).where('project_id', '=', projectId);
  if (search) {
    const pattern = likePattern(search);
    query = query.where((eb) => eb.or((['title', 'description', 'service', 'monitoring_tool'] as const).map((column) => eb(eb.fn('lower', [column]), 'like', pattern))));
  }
  const rows = await query.groupBy('status').execute();
  const counts = { triggered: 0, acknowledged: 0, resolved: 0, ignored: 0, open: 0, all: 0 };
  for (const row of rows) {
    const name = STATUSES[Number(row.status)];
    if (name) counts[name] = Number(row.n);
  }
  counts.open = counts.triggered + counts.acknowledged;
  counts.all = counts.open + counts.resolved + counts.ignored;
  return counts;
}

export async function findAlert(executor: Executor, projectId: number, iid: number): Promise<AlertRow> {
  const alert = await alertsWithEvents(executor).where('project_id', '=', projectId).where('iid', '=', iid).executeTakeFirst();
  if (!alert) throw new RecordNotFoundError();
  return alert;
}

export function projectIntegrationsQuery(executor: Executor, projectId: number) {
  return executor.selectFrom('alert_management_http_integrations').selectAll().where('project_id', '=', projectId).orderBy('id', 'asc');
}

export async function findIntegration(executor: Executor, projectId: number, id: number): Promise<IntegrationRow> {
  const row = await executor.selectFrom('alert_management_http_integrations').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  if (!row) throw new RecordNotFoundError();
  return row;
}

/**
 * The ingestion endpoint's lookup (§15): the ACTIVE integration of a project (by full path) with the
 * URL's endpoint identifier, and the project's incident settings, in one query. The legacy URLs name
 * no integration: they reach the project's oldest active one of their type.
 */
export async function findActiveIntegration(deps: Deps, fullPath: string, endpoint: { identifier: string } | { legacy: 'http' | 'prometheus' }): Promise<{ integration: IntegrationRow; settings: IncidentSettings } | undefined> {
  const row = 'identifier' in endpoint
    ? await integrationByIdentifier(deps.reads, fullPath, endpoint.identifier)
    : await deps.db
        .selectFrom('alert_management_http_integrations as i')
        .innerJoin('projects as p', 'p.id', 'i.project_id')
        .leftJoin('project_incident_management_settings as s', 's.project_id', 'i.project_id')
        .selectAll('i')
        .select(['s.create_issue', 's.send_email', 's.auto_close_incident', 's.alerting_tool_active', 's.alerting_tool_url'])
        .where('p.full_path_lower', '=', fullPath.toLowerCase())
        .where('i.active', '=', 1)
        .where('i.type_identifier', '=', endpoint.legacy)
        .orderBy('i.id', 'asc')
        .limit(1)
        .executeTakeFirst();
  if (!row) return undefined;
  const { create_issue, send_email, auto_close_incident, alerting_tool_active, alerting_tool_url, ...integration } = row;
  const settings: IncidentSettings = create_issue === null
    ? DEFAULT_INCIDENT_SETTINGS
    : { createIssue: create_issue === 1, sendEmail: send_email === 1, autoCloseIncident: auto_close_incident === 1, alertingToolActive: alerting_tool_active === 1, alertingToolUrl: alerting_tool_url };
  return { integration, settings };
}

export async function alertNotes(executor: Executor, alertId: number) {
  return executor.selectFrom('notes').selectAll().where('noteable_type', '=', 'AlertManagement::Alert').where('noteable_id', '=', alertId).orderBy('id', 'asc').limit(500).execute();
}
