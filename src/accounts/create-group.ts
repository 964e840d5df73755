import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../platform/errors.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { findGroup } from './lookup.js';
import { pathProblems } from './paths.js';
import type { NamespaceRow } from './access.js';

export interface CreateGroupInput {
  name: string;
  path: string;
  parentId?: number;
  visibility?: Visibility;
  description?: string;
}

const VISIBILITY_ORDER: Visibility[] = ['private', 'internal', 'public'];

/** Create a group; the creator becomes its owner. Subgroups need Maintainer on the parent. */
export async function createGroup(deps: Deps, actor: Principal, input: CreateGroupInput): Promise<NamespaceRow> {
  let parent: NamespaceRow | null = null;
  if (input.parentId !== undefined) {
    const access = await findGroup(deps, actor, input.parentId).catch(() => {
      throw new NotFoundError('Parent group');
    });
    if (access.level < ACCESS.maintainer) throw new ForbiddenError();
    parent = access.group;
  }
  const visibility = input.visibility ?? 'private';
  const errors: Record<string, string[]> = {};
  if (!input.name?.trim()) errors.name = ["can't be blank"];
  const problems = pathProblems(input.path ?? '', parent === null);
  if (problems.length) errors.path = problems;
  if (parent && VISIBILITY_ORDER.indexOf(visibility) > VISIBILITY_ORDER.indexOf(parent.visibility)) {
    errors.visibility_level = [`${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const fullPath = parent ? `${parent.full_path}/${input.path}` : input.path;
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      const group = await trx
        .insertInto('namespaces')
        .values({
          kind: 'group',
          name: input.name.trim(),
          path: input.path,
          full_path: fullPath,
          full_path_lower: fullPath.toLowerCase(),
          parent_id: parent ? parent.id : null,
          owner_id: null,
          visibility,
          description: input.description ?? '',
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('members')
        .values({ source_type: 'Namespace', source_id: group.id, user_id: actor.user.id, access_level: ACCESS.owner, expires_at: null, created_by_id: actor.user.id, created_at: now, updated_at: now })
        .execute();
      return group;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ path: ['has already been taken'] });
    throw error;
  }
}
