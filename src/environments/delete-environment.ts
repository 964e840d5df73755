import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { ForbiddenError, RecordNotFoundError } from '../platform/errors.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { EnvironmentRow } from './entities.js';
import { findEnvironment } from './finder.js';
import { authorizeProject, canOnProject } from '../platform/auth/policies/index.js';

export interface DeleteEnvironmentInput {
  access: ProjectAccess;
  environmentId: number;
  /** A check of the caller's own (e.g. HTTP If-Unmodified-Since) run on the found environment before deleting. */
  precondition?: (env: EnvironmentRow) => void;
}

/**
 * Delete a stopped environment and its deployments (foreign keys cascade). GitLab's order: read
 * access (403), the record (404 Not found), then `destroy_environment`, which needs Developer and a
 * stopped environment (environment_policy.rb; docs/decisions.md). The DELETE is conditional on the state,
 * so a deployment that restarts the environment meanwhile wins.
 */
export async function deleteEnvironment(deps: Deps, _actor: Principal, input: DeleteEnvironmentInput): Promise<void> {
  authorizeProject(input.access, 'read_environment');
  const env = await findEnvironment(deps.db, Number(input.access.project.id), input.environmentId);
  if (!canOnProject(input.access, 'destroy_environment') || env.state !== 'stopped') throw new ForbiddenError();
  input.precondition?.(env);
  const deleted = await deps.db.deleteFrom('environments').where('id', '=', env.id).where('state', '=', 'stopped').executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) {
    const again = await deps.db.selectFrom('environments').select('id').where('id', '=', env.id).executeTakeFirst();
    if (!again) throw new RecordNotFoundError();
    throw new ForbiddenError();
  }
}
