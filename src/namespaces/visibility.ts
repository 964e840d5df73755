// What the caller may do with a namespace, asked of the group policy: a group's own rules, and for a
// personal namespace only its owner (GitLab's Namespaces::UserNamespacePolicy) and administrators.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { NamespaceRow } from '../platform/auth/subjects.js';
import { canOnGroup, type PolicySubject } from '../platform/auth/policies/index.js';
import { groupAccessLevel } from '../accounts/api.js';

export async function namespaceSubject(deps: Deps, user: AuthUser, namespace: NamespaceRow): Promise<PolicySubject> {
  const level = await groupAccessLevel(deps.reads, user, namespace, deps.clock.now());
  // A personal namespace is never public or internal: only its owner holds a level there.
  return { user, level, visibility: namespace.kind === 'user' ? 'private' : namespace.visibility };
}

export async function canReadNamespace(deps: Deps, user: AuthUser, namespace: NamespaceRow): Promise<boolean> {
  return canOnGroup(await namespaceSubject(deps, user, namespace), 'read_namespace');
}

/** The groups of a page whose member counts the caller may see (admin_group, as the entity exposes them). */
export async function administeredGroupIds(deps: Deps, user: AuthUser, namespaces: NamespaceRow[]): Promise<number[]> {
  const ids: number[] = [];
  for (const namespace of namespaces) {
    if (namespace.kind !== 'group') continue;
    if (canOnGroup(await namespaceSubject(deps, user, namespace), 'admin_group')) ids.push(Number(namespace.id));
  }
  return ids;
}
