// Make a release (GitLab's Releases::CreateService): of an existing tag, or of a new one made from
// `ref` (as the tags API makes it), with Markdown notes, milestones, asset links and a release date
// (a future one makes an upcoming release). "Release already exists" is 409; a missing tag without
// `ref` is GitLab's 422 "Ref is not specified".
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ConflictError, StatusError, ValidationError } from '../platform/errors.js';
import { createTag, findCommit, listRefs, readableRepository, RepositoryApiError } from '../repositories/api.js';
import { insertLink, linkFieldProblems, type LinkInput } from './release-links.js';
import { collectEvidence } from './collect-evidence.js';
import type { ReleaseRow } from './finder.js';

export interface CreateReleaseInput {
  tagName: string;
  tagMessage?: string;
  name?: string;
  description?: string;
  ref?: string;
  milestoneIds?: number[];
  releasedAt?: number;
  links: Array<LinkInput & { name: string; url: string }>;
}

export const NAME_MAX = 255;
export const DESCRIPTION_MAX = 1_000_000;

export function releaseTextProblems(errors: Record<string, string[]>, input: { name?: string; description?: string }): void {
  if (input.name !== undefined && [...input.name].length > NAME_MAX) errors.name = [`is too long (maximum is ${NAME_MAX} characters)`];
  if (input.description !== undefined && input.description.length > DESCRIPTION_MAX) errors.description = [`is too long (maximum is ${DESCRIPTION_MAX} characters)`];
}

async function tagCommit(deps: Deps, access: ProjectAccess, input: CreateReleaseInput): Promise<string> {
  const ref = `refs/tags/${input.tagName}`;
  const existing = await readableRepository(deps, access.project);
  const refs = existing ? await listRefs(existing) : new Map<string, string>();
  let repository = existing;
  if (!refs.has(ref)) {
    if (!input.ref?.trim()) throw new StatusError(422, 'Ref is not specified');
    try {
      await createTag(deps, access, { name: input.tagName, ref: input.ref, message: input.tagMessage });
    } catch (error) {
      if (error instanceof RepositoryApiError) throw new StatusError(error.status, error.message);
      throw error;
    }
    // Only a repository that was missing needs reading again (the tag may have made it).
    repository ??= await readableRepository(deps, access.project);
  }
  const commit = await findCommit(repository!, ref);
  if (!commit) throw new StatusError(422, 'Tag does not point at a commit');
  return commit.id;
}

export async function createRelease(deps: Deps, access: ProjectAccess, input: CreateReleaseInput): Promise<ReleaseRow> {
  const errors: Record<string, string[]> = {};
  releaseTextProblems(errors, input);
  // The links are checked before a tag is made: a refused release leaves no new tag behind.
  for (const [index, link] of input.links.entries()) {
    // The release is not made yet: it has no links to read.
    Object.assign(errors, linkFieldProblems(link));
    const earlier = input.links.slice(0, index);
    if (earlier.some((other) => other.name === link.name)) errors.name = ['has already been taken'];
    if (earlier.some((other) => other.url === link.url)) errors.url = ['has already been taken'];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const projectId = Number(access.project.id);
  if (await deps.db.selectFrom('releases').select('id').where('project_id', '=', projectId).where('tag_name', '=', input.tagName).executeTakeFirst()) {
    throw new ConflictError('Release already exists');
  }
  const sha = await tagCommit(deps, access, input);
  const now = deps.clock.now();
  const releasedAt = input.releasedAt ?? now;
  try {
    return await inTransaction(deps.db, async (trx) => {
      const release = await trx.insertInto('releases').values({
        project_id: projectId, tag_name: input.tagName, name: input.name?.trim() || input.tagName, description: input.description ?? '',
        sha, author_id: access.user?.id ?? null, released_at: releasedAt, created_at: now, updated_at: now,
      }).returningAll().executeTakeFirstOrThrow();
      for (const link of input.links) await insertLink(trx, Number(release.id), link, now);
      if (input.milestoneIds?.length) await trx.insertInto('release_milestones').values(input.milestoneIds.map((id) => ({ release_id: release.id, milestone_id: id }))).execute();
      // GitLab collects evidence for releases made now: not for upcoming ones, nor historical ones (backdated).
      if (releasedAt <= now && releasedAt >= now - 60_000) await collectEvidence(trx, release, now);
      await deps.domainEvents.publish(trx, { kind: 'release.created', projectId, actorId: access.user?.id ?? null, releaseId: Number(release.id) });
      return release;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('Release already exists');
    throw error;
  }
}
