// Create a branch from a ref (GitLab's Branches::CreateService and ValidateNewService): an empty
// repository first gets its default branch with an empty README.md, as GitLab makes it.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { listRefs } from '../git.js';
import { RepositoryApiError } from './errors.js';
import type { CommitObject } from './git-objects.js';
import { findCommit } from './object-reader.js';
import { isEmptyRepository, writableRepository } from './project-repository.js';
import { BRANCH_PREFIX, isValidRefName } from './ref-names.js';
import { commitFiles } from './commit-files.js';
import { writeRef } from './write-ref.js';

/** A branch `a/b` cannot live beside a branch `a`, nor `a` beside `a/b`: refs are files and directories. */
function conflictsWithHierarchy(refs: Map<string, string>, name: string): boolean {
  const ref = `${BRANCH_PREFIX}${name}`;
  for (const existing of refs.keys()) {
    if (!existing.startsWith(BRANCH_PREFIX)) continue;
    if (existing.startsWith(`${ref}/`) || ref.startsWith(`${existing}/`)) return true;
  }
  return false;
}

export async function createBranch(deps: Deps, access: ProjectAccess, input: { name: string; ref: string }): Promise<{ name: string; commit: CommitObject }> {
  const { project } = access;
  if (input.ref.trim() === '') throw new RepositoryApiError('Ref is missing');
  const repoPath = await writableRepository(deps, project);
  if (isEmptyRepository(await listRefs(repoPath))) {
    await commitFiles(deps, access, {
      branch: project.default_branch,
      message: 'Add README.md',
      actions: [{ action: 'create', filePath: 'README.md', content: Buffer.alloc(0) }],
      changedMessage: () => '',
      skipBranchAccessCheck: true,
    });
  }
  const before = await listRefs(repoPath);
  if (!isValidRefName(input.name)) throw new RepositoryApiError('Branch name is invalid');
  if (before.has(`${BRANCH_PREFIX}${input.name}`)) throw new RepositoryApiError('Branch already exists');
  const commit = await findCommit(repoPath, input.ref);
  if (!commit) throw new RepositoryApiError(`Failed to create branch '${input.name}': invalid reference name '${input.ref}'`);
  if (conflictsWithHierarchy(before, input.name)) {
    throw new RepositoryApiError(`Failed to create branch '${input.name}': Branch name conflicts with existing branch hierarchy.`);
  }
  await writeRef(deps, { project, user: access.user as AuthUser, repoPath, before, ref: `${BRANCH_PREFIX}${input.name}`, newId: commit.id, conflictMessage: 'Branch already exists' });
  return { name: input.name, commit };
}
