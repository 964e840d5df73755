import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { authorizeProject } from '../platform/auth/policies/policy.js';
import { findIntegration } from './finder.js';

export async function deleteIntegration(deps: Deps, access: ProjectAccess, id: number): Promise<void> {
  authorizeProject(access, 'admin_operations');
  const integration = await findIntegration(deps.db, access.project.id, id);
  await deps.db.deleteFrom('alert_management_http_integrations').where('id', '=', integration.id).execute();
}
