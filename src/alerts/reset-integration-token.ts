import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { authorizeProject } from '../platform/auth/policies/policy.js';
import { findIntegration } from './finder.js';
import { newIntegrationToken } from './integration-input.js';
import type { IntegrationRow } from './integration-row.js';

/** "Reset key": a new random key; the old one stops working at once. */
export async function resetIntegrationToken(deps: Deps, access: ProjectAccess, id: number): Promise<IntegrationRow> {
  authorizeProject(access, 'admin_operations');
  const integration = await findIntegration(deps.db, access.project.id, id);
  return deps.db
    .updateTable('alert_management_http_integrations')
    .set({ token_sealed: deps.box.seal(newIntegrationToken()), updated_at: deps.clock.now() })
    .where('id', '=', integration.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

