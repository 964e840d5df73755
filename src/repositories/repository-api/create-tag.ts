// Create a tag (GitLab's Tags::CreateService): lightweight, or annotated when a message is given,
// with the caller as tagger. Every refusal is the API's 400.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { listRefs } from '../git.js';
import { RepositoryApiError } from './errors.js';
import { findCommit } from './object-reader.js';
import { writableRepository } from './project-repository.js';
import { isValidRefName, TAG_PREFIX } from './ref-names.js';
import { writeTagObject } from './commit-writer.js';
import { userIdentity } from './identity.js';
import { writeRef } from './write-ref.js';

export async function createTag(deps: Deps, access: ProjectAccess, input: { name: string; ref: string; message?: string }): Promise<void> {
  if (input.ref.trim() === '') throw new RepositoryApiError('Target is empty');
  if (!isValidRefName(input.name)) throw new RepositoryApiError('Tag name invalid');
  const user = access.user as AuthUser;
  const repoPath = await writableRepository(deps, access.project);
  const before = await listRefs(repoPath);
  const ref = `${TAG_PREFIX}${input.name}`;
  if (before.has(ref)) throw new RepositoryApiError(`Tag ${input.name} already exists`);
  const commit = await findCommit(repoPath, input.ref);
  if (!commit) throw new RepositoryApiError(`Target ${input.ref} is invalid`);
  const message = input.message?.trim() ?? '';
  const target =
    message === ''
      ? commit.id
      : await writeTagObject(repoPath, { name: input.name, target: commit.id, message, tagger: await userIdentity(deps, user), time: Math.floor(deps.clock.now() / 1000) });
  await writeRef(deps, { project: access.project, user, repoPath, before, ref, newId: target, conflictMessage: `Tag ${input.name} already exists` });
}
