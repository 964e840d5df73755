// PUT /groups/:id (GitLab's Groups::UpdateService): name, path (everything below moves with it and the
// old paths keep redirecting), description, visibility between its parent's and its children's, avatar.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { checkLength } from '../platform/http/params.js';
import { GROUP_DESCRIPTION_MAX, NAME_MAX } from './text-limits.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import type { GroupAccess } from '../platform/auth/subjects.js';
import { authorizeGroup } from '../platform/auth/policies/index.js';
import type { UploadedFile } from '../platform/http/multipart.js';
import type { NamespaceRow } from './access.js';
import { pathProblems } from './paths.js';
import { childrenVisibilityProblem, subgroupVisibilityProblem } from './visibility.js';
import { restrictedVisibilityProblem } from '../application-settings/api.js';
import { recordSubtreeRedirects } from './record-redirects.js';
import { releaseSubtree } from './release-redirects.js';
import { moveDescendantPaths } from './rename-queries.js';
import { removeAvatar } from './remove-avatar.js';
import { storeAvatar } from './store-avatar.js';
import { groupSnapshot } from './system-events.js';
import { changesAnything, settingChanges } from './stored-settings.js';
import { GROUP_SETTING_ALIASES, GROUP_STORED_SETTINGS } from './settings-tables.js';

export interface UpdateGroupInput {
  name?: string;
  path?: string;
  description?: string;
  visibility?: Visibility;
  avatar?: UploadedFile | null;
  /** The parsed parameters of GROUP_STORED_SETTINGS and its aliases (settings-tables.ts). */
  stored?: Record<string, unknown>;
}

async function validate(deps: Deps, access: GroupAccess, input: UpdateGroupInput): Promise<void> {
  const group = access.group;
  const errors: Record<string, string[]> = {};
  if (input.name !== undefined && !input.name.trim()) errors.name = ["can't be blank"];
  checkLength(errors, 'name', input.name, NAME_MAX);
  checkLength(errors, 'description', input.description, GROUP_DESCRIPTION_MAX);
  if (input.path !== undefined) {
    const problems = pathProblems(input.path, group.parent_id === null);
    if (problems.length) errors.path = problems;
  }
  if (input.visibility !== undefined) {
    const parent = group.parent_id === null ? null : await deps.db.selectFrom('namespaces').selectAll().where('id', '=', group.parent_id).executeTakeFirst();
    const problem = subgroupVisibilityProblem(input.visibility, parent ?? null)
      ?? (await childrenVisibilityProblem(deps.db, group, input.visibility))
      // A restricted level is refused only when it changes (GitLab's visibility_level_changed check).
      ?? (input.visibility !== group.visibility ? await restrictedVisibilityProblem(deps.db, access.user, input.visibility) : null);
    if (problem) errors.visibility_level = [problem];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** The full path a group has with `path` under its current parent. */
export function siblingPath(group: NamespaceRow, path: string): string {
  const slash = group.full_path.lastIndexOf('/');
  return slash === -1 ? path : `${group.full_path.slice(0, slash)}/${path}`;
}

export async function updateGroup(deps: Deps, access: GroupAccess, input: UpdateGroupInput): Promise<NamespaceRow> {
  if (input.visibility !== undefined) authorizeGroup(access, 'change_visibility_level');
  const group = access.group;
  await validate(deps, access, input);
  const now = deps.clock.now();
  const changes: Record<string, unknown> = { updated_at: now };
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.description !== undefined) changes.description = input.description;
  if (input.visibility !== undefined) changes.visibility = input.visibility;
  const stored = input.stored && settingChanges(GROUP_STORED_SETTINGS, GROUP_SETTING_ALIASES, input.stored, group.settings);
  if (stored !== undefined) changes.settings = stored;
  const newPath = input.path !== undefined && input.path !== group.path ? siblingPath(group, input.path) : null;
  if (newPath) Object.assign(changes, { path: input.path, full_path: newPath, full_path_lower: newPath.toLowerCase() });
  if (input.avatar === undefined && !changesAnything(group, changes)) return group;
  try {
    return await inTransaction(deps.db, async (trx) => {
      if (input.avatar === null) {
        await removeAvatar(trx, 'Namespace', Number(group.id));
        changes.avatar = null;
      } else if (input.avatar) {
        changes.avatar = await storeAvatar(trx, 'Namespace', Number(group.id), input.avatar, now);
      }
      if (newPath) {
        await recordSubtreeRedirects(trx, Number(group.id), group.full_path, now);
        await moveDescendantPaths(trx, group.full_path, newPath);
        await releaseSubtree(trx, newPath);
      }
      const updated = await trx.updateTable('namespaces').set(changes).where('id', '=', group.id).returningAll().executeTakeFirstOrThrow();
      // System hooks' group_rename: the group's own path changed (GitLab sends nothing for other edits).
      if (newPath) await deps.domainEvents.publish(trx, { kind: 'group.renamed', actorId: access.user?.id ?? null, group: groupSnapshot(updated), oldPath: group.path, oldFullPath: group.full_path });
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ path: ['has already been taken'] });
    throw error;
  }
}
