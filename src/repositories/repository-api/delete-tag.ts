// Delete a tag (GitLab's Tags::DestroyService): a protected tag only by those its rule lets create it,
// Maintainers and up, as write-ref.ts decides for every ref it moves.
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
