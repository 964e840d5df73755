// Linking an existing project as a fork (POST /projects/:id/fork/:forked_from_id; GitLab's
// ForkService#link_existing_project): the caller must be allowed to fork the upstream and create
// projects where the project lives; nothing is copied.
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { inTransaction } from '../platform/db/database.js';
import { ForbiddenError, StatusError } from '../platform/errors.js';
import { ApiError } from '../platform/http/api-error.js';
import { isFork, joinForkNetwork } from '../accounts/api.js';
import { isForkTarget, mayFork } from './fork-project.js';

export async function linkFork(deps: Deps, principal: Principal, project: ProjectAccess, upstream: ProjectAccess): Promise<void> {
  if (!mayFork(upstream)) throw new ForbiddenError();
  if (!(await isForkTarget(deps, principal, project.namespace))) throw new ApiError(401, { message: '401 Unauthorized - Target Namespace' });
  if (await isFork(deps.db, Number(project.project.id))) throw new StatusError(409, 'Project already forked');
  if (Number(project.project.id) === Number(upstream.project.id)) throw new StatusError(400, 'Target project cannot be equal to source project');
  await inTransaction(deps.db, (trx) => joinForkNetwork(trx, deps.clock.now(), Number(upstream.project.id), Number(project.project.id)));
}
