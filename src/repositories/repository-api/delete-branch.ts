// Delete a branch (GitLab's Branches::DeleteService): the default branch and protected branches are
// refused by the rules of a push from the web; a branch that moved meanwhile is not deleted.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { NotFoundError } from '../../platform/errors.js';
import { listRefs } from '../git.js';
import { readableRepository } from './project-repository.js';
import { BRANCH_PREFIX, ZERO_OID } from './ref-names.js';
import { writeRef } from './write-ref.js';

export async function deleteBranch(deps: Deps, access: ProjectAccess, name: string): Promise<void> {
  const repoPath = await readableRepository(deps, access.project);
  const before = repoPath ? await listRefs(repoPath) : new Map<string, string>();
  const ref = `${BRANCH_PREFIX}${name}`;
  if (!repoPath || !before.has(ref)) throw new NotFoundError('Branch');
  await writeRef(deps, { project: access.project, user: access.user as AuthUser, repoPath, before, ref, newId: ZERO_OID, conflictMessage: 'Failed to remove branch' });
}
