// Removing a project's fork relationship (DELETE /projects/:id/fork; GitLab's UnlinkForkService): the
// open merge requests between it and its network are closed, and it leaves the network (its upstream
// counts one fork less). Its repository keeps every object: a fork never depended on its upstream's
// files (repositories' fork-repository.ts). False when it was not a fork (GitLab's 304).
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { inTransaction } from '../platform/db/database.js';
import { isFork, leaveForkNetwork } from '../accounts/api.js';
import { closeForkMergeRequests } from '../merge-requests/api.js';

export async function unlinkFork(deps: Deps, principal: Principal, access: ProjectAccess): Promise<boolean> {
  const projectId = Number(access.project.id);
  if (!(await isFork(deps.db, projectId))) return false;
  await closeForkMergeRequests(deps, principal.user.id, projectId);
  return inTransaction(deps.db, (trx) => leaveForkNetwork(trx, projectId));
}
