// Protect a tag or wildcard (GitLab's ProtectedTags::CreateService) and unprotect one. One rule per
// name and project: the unique constraint decides between two requests, and the loser gets the
// model's uniqueness error as GitLab's API renders it (422), not a 409 as protected branches do.
import type { Deps } from '../../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../../platform/db/database.js';
import { RecordNotFoundError } from '../../platform/errors.js';
import { ApiError } from '../../platform/http/api-error.js';
import { PROTECTED_REF_LEVELS } from '../../platform/auth/policies/index.js';
import { findProtectedTag, type ProtectedTagRule } from './tag-finder.js';

export const NAME_TAKEN = 'Name has already been taken';

export class ProtectedTagInvalid extends ApiError {
  constructor(readonly messages: string[]) {
    super(422, { message: messages });
  }
}

export async function protectTag(deps: Deps, input: { projectId: number; name: string; createAccessLevel?: number }): Promise<ProtectedTagRule> {
  if (input.name.trim() === '') throw new ProtectedTagInvalid(["Name can't be blank"]);
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      const tag = await trx
        .insertInto('protected_tags')
        .values({ project_id: input.projectId, name: input.name, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The API's default is Maintainers (doc/api/protected_tags.md).
      await trx
        .insertInto('protected_tag_create_access_levels')
        .values({ protected_tag_id: tag.id, access_level: input.createAccessLevel ?? PROTECTED_REF_LEVELS.maintainer })
        .execute();
      return findProtectedTag(trx, input.projectId, input.name);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ProtectedTagInvalid([NAME_TAKEN]);
    throw error;
  }
}

/** The rule and its levels go (the levels by the foreign key's cascade). */
export async function unprotectTag(deps: Deps, projectId: number, name: string): Promise<void> {
  const deleted = await deps.db.deleteFrom('protected_tags').where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new RecordNotFoundError();
}
