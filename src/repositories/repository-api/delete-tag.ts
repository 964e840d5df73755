// Delete a tag (GitLab's Tags::DestroyService); Kiln has no protected tags or releases to consider.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { NotFoundError } from '../../platform/errors.js';
import { listRefs } from '../git.js';
import { readableRepository } from './project-repository.js';
import { TAG_PREFIX, ZERO_OID } from './ref-names.js';
import { writeRef } from './write-ref.js';

export async function deleteTag(deps: Deps, access: ProjectAccess, name: string): Promise<void> {
  const repoPath = await readableRepository(deps, access.project);
  const before = repoPath ? await listRefs(repoPath) : new Map<string, string>();
  const ref = `${TAG_PREFIX}${name}`;
  if (!repoPath || !before.has(ref)) throw new NotFoundError('Tag');
  await writeRef(deps, { project: access.project, user: access.user as AuthUser, repoPath, before, ref, newId: ZERO_OID, conflictMessage: 'Failed to remove tag' });
}
