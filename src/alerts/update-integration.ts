// Change an integration's name, active flag, sample payload or mapping; its type and endpoint
// identifier never change (§14.2).
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { authorizeProject } from '../platform/auth/policies/policy.js';
import { ValidationError } from '../platform/errors.js';
import { inTransaction } from '../platform/db/database.js';
import { lockProject } from '../accounts/api.js';
import { incidentSettings } from './incident-settings.js';
import { findIntegration } from './finder.js';
import { TOOL_ACTIVE, validateIntegrationInput, type IntegrationInput } from './integration-input.js';
import type { IntegrationRow } from './integration-row.js';

export async function updateIntegration(deps: Deps, access: ProjectAccess, id: number, input: Omit<IntegrationInput, 'type'>): Promise<IntegrationRow> {
  authorizeProject(access, 'admin_operations');
  const integration = await findIntegration(deps.db, access.project.id, id);
  const changes: Record<string, string | number> = validateIntegrationInput(deps, input, integration.type_identifier);
  if (input.active !== undefined) changes.active = input.active ? 1 : 0;
  return inTransaction(deps.db, async (trx) => {
    await lockProject(trx, access.project.id);
    if (input.active && (await incidentSettings(trx, access.project.id)).alertingToolActive) throw new ValidationError({ active: [TOOL_ACTIVE] });
    return trx
      .updateTable('alert_management_http_integrations')
      .set({ ...changes, updated_at: deps.clock.now() })
      .where('id', '=', integration.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

