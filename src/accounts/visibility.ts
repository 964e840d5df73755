// A project or subgroup can't be more visible than the group it lives in (GitLab's
// Project#visibility_level_allowed_by_group and Group#visibility_level_allowed_by_parent, with
// their 400 messages).
import type { Visibility } from '../platform/db/tables/accounts.js';
import type { NamespaceRow } from './access.js';

const ORDER: readonly Visibility[] = ['private', 'internal', 'public'];

function moreVisible(visibility: Visibility, than: Visibility): boolean {
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
