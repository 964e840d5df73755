// GitLab's Namespace entity: NamespaceBasic (accounts' namespace entity) and, for a group the caller
// administers (admin_group), members_count_with_descendants.
import type { NamespaceRow } from '../platform/auth/subjects.js';
import { namespaceEntity } from '../accounts/api.js';

export function namespaceWithCounts(baseUrl: string, namespace: NamespaceRow, membersCount: number | undefined) {
  return membersCount === undefined ? namespaceEntity(baseUrl, namespace) : { ...namespaceEntity(baseUrl, namespace), members_count_with_descendants: membersCount };
}
