import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../accounts/lookup.js';
import { requireLevel } from '../accounts/lookup.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { findIntegration } from './finder.js';

export async function deleteIntegration(deps: Deps, access: ProjectAccess, id: number): Promise<void> {
  requireLevel(access, ACCESS.maintainer);
  const integration = await findIntegration(deps.db, access.project.id, id);
  await deps.db.deleteFrom('alert_management_http_integrations').where('id', '=', integration.id).execute();
}
