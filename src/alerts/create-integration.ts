// Create an alert integration, for Maintainers and above (`admin_operations`, §14.2). Prometheus has
// one fixed URL per project; the free tier has one HTTP endpoint.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { authorizeProject } from '../platform/auth/policies/policy.js';
import { BadRequestError, ValidationError } from '../platform/errors.js';
import { inTransaction } from '../platform/db/database.js';
import { lockProject } from '../accounts/api.js';
import { incidentSettings } from './incident-settings.js';
import { newEndpointIdentifier, newIntegrationToken, TOOL_ACTIVE, validateIntegrationInput, type IntegrationInput } from './integration-input.js';
import type { IntegrationRow } from './integration-row.js';

export async function createIntegration(deps: Deps, access: ProjectAccess, input: IntegrationInput): Promise<IntegrationRow> {
  authorizeProject(access, 'admin_operations');
  const type = input.type ?? 'http';
  if (input.name === undefined) throw new ValidationError({ name: ["can't be blank"] });
  const changes = validateIntegrationInput(deps, input, type);
  const active = input.active ?? true;
  const projectId = access.project.id;
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    await lockProject(trx, projectId);
    if (active && (await incidentSettings(trx, projectId)).alertingToolActive) throw new ValidationError({ active: [TOOL_ACTIVE] });
    const sameType = await trx.selectFrom('alert_management_http_integrations').select('id').where('project_id', '=', projectId).where('type_identifier', '=', type).limit(1).executeTakeFirst();
    if (sameType && (type === 'prometheus' || deps.config.tier === 'free')) throw new BadRequestError('Multiple integrations of a single type are not supported for this project');
    return trx
      .insertInto('alert_management_http_integrations')
      .values({
        project_id: projectId,
        name: changes.name,
        active: active ? 1 : 0,
        type_identifier: type,
        endpoint_identifier: newEndpointIdentifier(),
        token_sealed: deps.box.seal(newIntegrationToken()),
        payload_example: changes.payload_example ?? '{}',
        payload_attribute_mapping: changes.payload_attribute_mapping ?? '{}',
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

