import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { RecordNotFoundError, ValidationError } from '../platform/errors.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { SettingsRow } from './entities.js';
import { authorizeProject } from '../platform/auth/policies/index.js';
import { requireSettings } from './finder.js';
import { settingsErrors } from './validation.js';

export interface SetActiveInput {
  access: ProjectAccess;
  active: boolean;
  integrated?: boolean;
}

/**
 * Enable or disable already configured settings (`PATCH …/error_tracking/settings`): it never creates
 * them (404 when there are none). Enabling re-checks what an enabled tracker needs; where GitLab then
 * answers 200 with its service's error hash, Kiln answers 400 with the validation messages.
 */
export async function setErrorTrackingActive(deps: Deps, _actor: Principal, input: SetActiveInput): Promise<SettingsRow> {
  authorizeProject(input.access, 'admin_operations');
  const projectId = Number(input.access.project.id);
  const row = await requireSettings(deps.db, projectId);
  const integrated = input.integrated ?? row.integrated === 1;
  const errors = settingsErrors({ enabled: input.active, integrated, apiUrl: row.api_url, hasToken: row.token_sealed !== null });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const updated = await deps.db
    .updateTable('error_tracking_settings')
    .set({ enabled: input.active ? 1 : 0, integrated: integrated ? 1 : 0, updated_at: deps.clock.now() })
    .where('project_id', '=', projectId)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new RecordNotFoundError();
  return updated;
}
