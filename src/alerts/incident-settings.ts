// Project incident settings (GitLab's alert management documentation). A project without a row behaves as one with
// the column defaults: no incident per alert, auto-close on, no alerting tool link.
import type { Selectable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { IncidentSettingsTable } from '../platform/db/tables/alerts.js';

export type IncidentSettingsRow = Selectable<IncidentSettingsTable>;

export interface IncidentSettings {
  createIssue: boolean;
  sendEmail: boolean;
  autoCloseIncident: boolean;
  alertingToolActive: boolean;
  alertingToolUrl: string | null;
}

export const DEFAULT_INCIDENT_SETTINGS: IncidentSettings = { createIssue: false, sendEmail: false, autoCloseIncident: true, alertingToolActive: false, alertingToolUrl: null };

export async function incidentSettings(executor: Executor, projectId: number): Promise<IncidentSettings> {
  const row = await executor.selectFrom('project_incident_management_settings').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  if (!row) return DEFAULT_INCIDENT_SETTINGS;
  return {
    createIssue: row.create_issue === 1,
    sendEmail: row.send_email === 1,
    autoCloseIncident: row.auto_close_incident === 1,
    alertingToolActive: row.alerting_tool_active === 1,
    alertingToolUrl: row.alerting_tool_url,
  };
}
