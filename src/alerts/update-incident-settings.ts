// Incident settings and the incident alerting tool link (specification, Alert ingestion endpoint):
// Maintainers and above. While the tool link is active no other integration may be active, so it
// can only be switched on when none is.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { authorizeProject } from '../platform/auth/policies/policy.js';
import { inTransaction } from '../platform/db/database.js';
import { lockProject } from '../accounts/api.js';
import { ValidationError } from '../platform/errors.js';
import { incidentSettings, type IncidentSettings } from './incident-settings.js';

export type IncidentSettingsInput = Partial<IncidentSettings>;

export async function updateIncidentSettings(deps: Deps, access: ProjectAccess, input: IncidentSettingsInput): Promise<IncidentSettings> {
  authorizeProject(access, 'admin_operations');
  const projectId = access.project.id;
  if (input.alertingToolUrl !== undefined && input.alertingToolUrl !== null && input.alertingToolUrl !== '') {
    let url: URL | null = null;
    try {
      url = new URL(input.alertingToolUrl);
    } catch {
      /* reported below */
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new ValidationError({ alerting_tool_url: ['must be an http(s) URL'] });
  }
  return inTransaction(deps.db, async (trx) => {
    await lockProject(trx, projectId);
    const current = await incidentSettings(trx, projectId);
    const next: IncidentSettings = {
      ...current,
      ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)),
    };
    if (next.alertingToolUrl === '') next.alertingToolUrl = null;
    if (next.alertingToolActive && !current.alertingToolActive) {
      if (!next.alertingToolUrl) throw new ValidationError({ alerting_tool_url: ["can't be blank while the link is active"] });
      const active = await trx.selectFrom('alert_management_http_integrations').select('id').where('project_id', '=', projectId).where('active', '=', 1).limit(1).executeTakeFirst();
      if (active) throw new ValidationError({ alerting_tool_active: ['another alert integration is active; deactivate it first'] });
    }
    const row = {
      create_issue: next.createIssue ? 1 : 0,
      send_email: next.sendEmail ? 1 : 0,
      auto_close_incident: next.autoCloseIncident ? 1 : 0,
      alerting_tool_active: next.alertingToolActive ? 1 : 0,
      alerting_tool_url: next.alertingToolUrl,
      updated_at: deps.clock.now(),
    };
    await trx
      .insertInto('project_incident_management_settings')
      .values({ project_id: projectId, ...row })
      .onConflict((conflict) => conflict.column('project_id').doUpdateSet(row))
      .execute();
    return next;
  });
}
