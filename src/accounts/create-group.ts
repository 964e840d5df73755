import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { checkLength } from '../platform/http/params.js';
import { GROUP_DESCRIPTION_MAX, NAME_MAX } from './text-limits.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { authorizeGroup } from '../platform/auth/policies/index.js';
import { findGroup } from './lookup.js';
import { pathProblems } from './paths.js';
import { subgroupVisibilityProblem } from './visibility.js';
import { releasePath } from './release-redirects.js';
import type { NamespaceRow } from './access.js';
import { settingChanges } from './stored-settings.js';
import { GROUP_SETTING_ALIASES, GROUP_STORED_SETTINGS } from './settings-tables.js';
import { groupSnapshot, publishMemberEvent } from './system-events.js';
import { defaultVisibility, restrictedVisibilityProblem } from '../application-settings/api.js';

export interface CreateGroupInput {
  name: string;
  path: string;
  parentId?: number;
  visibility?: Visibility;
  description?: string;
  /** The parsed parameters of GROUP_STORED_SETTINGS and its aliases (settings-tables.ts). */
  stored?: Record<string, unknown>;
}

/** The parent of a new subgroup: "404 Parent group Not Found" when unreadable, 403 without create_subgroup. */
async function parentGroup(deps: Deps, actor: Principal, parentId: number): Promise<NamespaceRow> {
  const access = await findGroup(deps, actor, parentId).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError('Parent group') : error;
  });
  authorizeGroup(access, 'create_subgroup');
  return access.group;
}

/** Create a group; the creator becomes its Owner. Subgroups need create_subgroup on the parent. */
export async function createGroup(deps: Deps, actor: Principal, input: CreateGroupInput): Promise<NamespaceRow> {
  const parent = input.parentId === undefined ? null : await parentGroup(deps, actor, input.parentId);
  // The instance default when none is named, never above the parent's visibility.
  const visibility = input.visibility ?? (await defaultVisibility(deps.db, 'group', parent ? parent.visibility : null));
  const errors: Record<string, string[]> = {};
  if (!input.name?.trim()) errors.name = ["can't be blank"];
  checkLength(errors, 'name', input.name, NAME_MAX);
  checkLength(errors, 'description', input.description, GROUP_DESCRIPTION_MAX);
  const problems = pathProblems(input.path ?? '', parent === null);
  if (problems.length) errors.path = problems;
  const visibilityProblem = subgroupVisibilityProblem(visibility, parent) ?? (await restrictedVisibilityProblem(deps.db, actor.user, visibility));
  if (visibilityProblem) errors.visibility_level = [visibilityProblem];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const settings = input.stored && settingChanges(GROUP_STORED_SETTINGS, GROUP_SETTING_ALIASES, input.stored, '{}');
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
          ...(settings === undefined ? {} : { settings }),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await releasePath(trx, fullPath);
      await trx
        .insertInto('members')
        .values({ source_type: 'Namespace', source_id: group.id, user_id: actor.user.id, access_level: ACCESS.owner, expires_at: null, created_by_id: actor.user.id, created_at: now, updated_at: now })
        .execute();
      // System hooks: group_create, then user_add_to_group for the creator, as GitLab sends them.
      await deps.domainEvents.publish(trx, { kind: 'group.created', actorId: actor.user.id, group: groupSnapshot(group) });
      await publishMemberEvent(deps, trx, 'member.added', { type: 'Namespace', id: Number(group.id) }, actor.user.id, actor.user.id);
      return group;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ path: ['has already been taken'] });
    throw error;
  }
}
