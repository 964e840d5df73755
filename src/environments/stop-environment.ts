import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { EnvironmentRow } from './entities.js';
import { findEnvironment } from './finder.js';
import { authorizeProject, canOnProject } from '../platform/auth/policies/index.js';

export interface StopEnvironmentInput {
  access: ProjectAccess;
  environmentId: number;
}

/**
 * Stop an environment (`available` → `stopped`). As in GitLab (GitLab's REST API documentation) the endpoint needs
 * only read access and always answers with the environment as it now is: stopping an already stopped
 * environment is a no-op, and a caller below Developer (no `stop_environment`) changes nothing.
 * The conditional UPDATE makes two racing stops one transition.
 */
export async function stopEnvironment(deps: Deps, _actor: Principal, input: StopEnvironmentInput): Promise<EnvironmentRow> {
  authorizeProject(input.access, 'read_environment');
  const env = await findEnvironment(deps.db, Number(input.access.project.id), input.environmentId);
  if (env.state !== 'available' || !canOnProject(input.access, 'stop_environment')) return env;
  const stopped = await deps.db
    .updateTable('environments')
    .set({ state: 'stopped', updated_at: deps.clock.now() })
    .where('id', '=', env.id)
    .where('state', '=', 'available')
    .returningAll()
    .executeTakeFirst();
  return stopped ?? findEnvironment(deps.db, Number(input.access.project.id), input.environmentId);
}
