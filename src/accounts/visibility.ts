// A project or subgroup can't be more visible than the group it lives in (GitLab's
// Project#visibility_level_allowed_by_group and Group#visibility_level_allowed_by_parent, with
// their 400 messages).
import type { Visibility } from '../platform/db/tables/accounts.js';
import type { NamespaceRow } from './access.js';
import type { Executor } from '../platform/db/database.js';

export const ORDER: readonly Visibility[] = ['private', 'internal', 'public'];

export function moreVisible(visibility: Visibility, than: Visibility): boolean {
  return ORDER.indexOf(visibility) > ORDER.indexOf(than);
}

/** The `visibility_level` error of a project in this namespace, or null. Personal namespaces allow any. */
export function projectVisibilityProblem(visibility: Visibility, namespace: NamespaceRow): string | null {
  if (namespace.kind !== 'group' || !moreVisible(visibility, namespace.visibility)) return null;
  return `${visibility} is not allowed in a ${namespace.visibility} group.`;
}

/** The `visibility_level` error of a subgroup under this parent, or null. */
export function subgroupVisibilityProblem(visibility: Visibility, parent: NamespaceRow | null): string | null {
  if (!parent || !moreVisible(visibility, parent.visibility)) return null;
  return `${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`;
}

/**
 * The `visibility_level` error of a group made less visible than one of its projects or subgroups
 * (GitLab's Group#visibility_level_allowed_by_projects / _by_sub_groups), or null.
 */
export async function childrenVisibilityProblem(executor: Executor, group: NamespaceRow, visibility: Visibility): Promise<string | null> {
  const moreVisible = ORDER.slice(ORDER.indexOf(visibility) + 1);
  if (moreVisible.length === 0) return null;
  const project = await executor.selectFrom('projects').select('id').where('namespace_id', '=', group.id).where('visibility', 'in', moreVisible).executeTakeFirst();
  if (project) return `${visibility} is not allowed since this group contains projects with higher visibility.`;
  const subgroup = await executor.selectFrom('namespaces').select('id').where('parent_id', '=', group.id).where('visibility', 'in', moreVisible).executeTakeFirst();
  if (subgroup) return `${visibility} is not allowed since there are sub-groups with higher visibility.`;
  return null;
}
