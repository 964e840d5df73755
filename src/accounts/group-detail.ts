// GitLab's GroupDetail as Kiln answers it (GET /groups/:id, POST /groups/:id/share): the Group entity
// with the groups it is shared with that the viewer may see.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { NamespaceRow } from './access.js';
import { groupEntity } from './entities.js';
import { sharedWithGroups } from './group-links.js';

export async function groupDetailEntity(deps: Deps, viewer: AuthUser | null, group: NamespaceRow) {
  return { ...groupEntity(deps.config.baseUrl, group), shared_with_groups: await sharedWithGroups(deps, viewer, { groupId: Number(group.id) }) };
}
