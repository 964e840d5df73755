import type { Generated } from 'kysely';

/** GitLab's AlertManagement::HttpIntegration (GitLab's alert management documentation). */
export interface AlertIntegrationsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  active: number;
  type_identifier: 'http' | 'prometheus';
  /** Random and immutable; `[A-Za-z0-9]+`. */
  endpoint_identifier: string;
  /** The authorization key, AES-256-GCM sealed with deps.box (shown again in the credentials view). */
  token_sealed: string;
  /** JSON text of the sample payload (`{}` when none). */
  payload_example: string;
  /** JSON text of `{field: {path, type, label}}` (`{}` when none). */
  payload_attribute_mapping: string;
  created_at: number;
  updated_at: number;
}

/** GitLab's AlertManagement::Alert (§20); status and severity are GitLab's small integers. */
export interface AlertsTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  status: number;
  severity: number;
  title: string;
  description: string | null;
  service: string | null;
  monitoring_tool: string | null;
  /** JSON array of strings. */
  hosts: string;
  started_at: number;
  ended_at: number | null;
  /** 40-character SHA-1 hex, or null (never grouped). */
  fingerprint: string | null;
  environment_name: string | null;
  environment_id: number | null;
  issue_id: number | null;
  /** JSON text of the payload this alert came from. */
  payload: string;
  created_at: number;
  updated_at: number;
}

/** GitLab's project_incident_management_settings (§21), plus the incident alerting tool link. */
export interface IncidentSettingsTable {
  project_id: number;
  create_issue: number;
  send_email: number;
  auto_close_incident: number;
  /** The incident alerting tool link (spec "Alert ingestion endpoint"); GitLab's Opsgenie integration. */
  alerting_tool_active: number;
  alerting_tool_url: string | null;
  updated_at: number;
}

/** How many posts an alert counted (GitLab's `events` column), kept narrow for the hot write. */
export interface AlertEventCountsTable {
  alert_id: number;
  events: number;
}

export interface AlertsTables {
  alert_management_http_integrations: AlertIntegrationsTable;
  alert_management_alerts: AlertsTable;
  alert_management_event_counts: AlertEventCountsTable;
  project_incident_management_settings: IncidentSettingsTable;
}
