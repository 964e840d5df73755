// Delete every branch merged into the default branch (GitLab's Branches::DeleteMergedService): not
// the default branch, not a protected one, not one at the default branch's own commit. GitLab does it
// in a job and answers 202 at once; Kiln does it before answering, each deletion a ref write that
// meets the push rules and leaves a branch that moved meanwhile alone.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { listRefs } from '../git.js';
import { projectRules, rulesMatching } from '../protected-branches/finder.js';
import { readableRepository } from './project-repository.js';
import { branchesMergedInto } from './git-reads.js';
import { BRANCH_PREFIX, ZERO_OID } from './ref-names.js';
import { RepositoryApiError } from './errors.js';
import { writeRef } from './write-ref.js';

export async function deleteMergedBranches(deps: Deps, access: ProjectAccess): Promise<string[]> {
  const { project } = access;
  const repoPath = await readableRepository(deps, project);
  if (!repoPath) return [];
  const refs = await listRefs(repoPath);
  const root = refs.get(`${BRANCH_PREFIX}${project.default_branch}`);
  if (!root) return [];
  const rules = await projectRules(deps.db, Number(project.id));
  const merged = [...(await branchesMergedInto(repoPath, root))].filter((ref) => {
    const name = ref.slice(BRANCH_PREFIX.length);
    return name !== project.default_branch && refs.get(ref) !== root && rulesMatching(rules, name).length === 0;
  });
  const deleted: string[] = [];
  for (const ref of merged) {
    try {
      await writeRef(deps, { project, user: access.user as AuthUser, repoPath, before: await listRefs(repoPath), ref, newId: ZERO_OID, conflictMessage: '' });
      deleted.push(ref.slice(BRANCH_PREFIX.length));
    } catch (error) {
      // A branch that moved (or was refused) since it was listed is kept, as the job would keep it.
      if (!(error instanceof RepositoryApiError)) throw error;
    }
  }
  return deleted;
}
