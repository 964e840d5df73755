// Wire shapes of alerts and integrations (Kiln extension; fields after GitLab's GraphQL types in
// GitLab's alert management documentation), listed explicitly.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { projectWebUrl } from '../accounts/api.js';
import { isoTime } from '../platform/clock.js';
import { severityName, statusName } from './model.js';
import type { AlertRow } from './finder.js';
import type { IntegrationRow } from './integration-row.js';

/** GitLab's slug of the integration name in its URL (§14.1); cosmetic, never checked. */
export function integrationSlug(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '');
  return slug || 'http-endpoint';
}

export function integrationUrl(baseUrl: string, project: Pick<ProjectRow, 'full_path'>, integration: Pick<IntegrationRow, 'name' | 'type_identifier' | 'endpoint_identifier'>): string {
  const root = projectWebUrl(baseUrl, project.full_path);
  if (integration.type_identifier === 'prometheus') return `${root}/prometheus/alerts/notify.json`;
  return `${root}/alerts/notify/${integrationSlug(integration.name)}/${integration.endpoint_identifier}.json`;
}

export function integrationEntity(deps: Deps, project: ProjectRow, integration: IntegrationRow) {
  return {
    id: Number(integration.id),
    name: integration.name,
    active: integration.active === 1,
    type: integration.type_identifier,
    url: integrationUrl(deps.config.baseUrl, project, integration),
    token: deps.box.open(integration.token_sealed),
    payload_example: integration.payload_example,
    payload_attribute_mapping: JSON.parse(integration.payload_attribute_mapping) as unknown,
    created_at: isoTime(integration.created_at),
    updated_at: isoTime(integration.updated_at),
  };
}

export function alertDetailsUrl(baseUrl: string, project: Pick<ProjectRow, 'full_path'>, iid: number): string {
  return `${projectWebUrl(baseUrl, project.full_path)}/-/alert_management/${iid}/details`;
}

export function alertEntity(baseUrl: string, project: ProjectRow, alert: AlertRow, issueIid: number | null) {
  return {
    id: Number(alert.id),
    iid: alert.iid,
    project_id: Number(alert.project_id),
    title: alert.title,
    description: alert.description,
    severity: severityName(alert.severity),
    status: statusName(alert.status),
    service: alert.service,
    monitoring_tool: alert.monitoring_tool,
    hosts: JSON.parse(alert.hosts) as string[],
    started_at: isoTime(alert.started_at),
    ended_at: isoTime(alert.ended_at),
    events: alert.events,
    fingerprint: alert.fingerprint,
    // Linked when the project had an environment of that exact name when the alert arrived (§16),
    // and only while that environment exists.
    environment: alert.environment_id === null || alert.linked_environment_name === null ? null : { id: Number(alert.environment_id), name: alert.linked_environment_name },
    issue_iid: issueIid,
    payload: JSON.parse(alert.payload) as unknown,
    created_at: isoTime(alert.created_at),
    updated_at: isoTime(alert.updated_at),
    details_url: alertDetailsUrl(baseUrl, project, alert.iid),
  };
}

/** The iids of the incidents a page of alerts links to, in one query. */
export async function incidentIids(deps: Deps, alerts: AlertRow[]): Promise<Map<number, number>> {
  const ids = [...new Set(alerts.map((alert) => alert.issue_id).filter((id): id is number => id !== null).map(Number))];
  if (ids.length === 0) return new Map();
  const rows = await deps.db.selectFrom('issues').select(['id', 'iid']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [Number(row.id), row.iid]));
}
