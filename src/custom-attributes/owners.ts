// The owner a custom attribute route names: a user (id or username), a group or a project (id or
// URL-encoded path), found as the administrator calling sees them (404 when there is none).
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { findGroup, findProject, findUser } from '../accounts/api.js';

export type OwnerKind = 'users' | 'groups' | 'projects';
export type OwnerColumn = 'user_id' | 'group_id' | 'project_id';

export const OWNER_COLUMNS: Record<OwnerKind, OwnerColumn> = { users: 'user_id', groups: 'group_id', projects: 'project_id' };

export async function findOwnerId(deps: Deps, principal: Principal, kind: OwnerKind, id: string): Promise<number> {
  if (kind === 'users') return Number((await findUser(deps, id)).id);
  if (kind === 'groups') return Number((await findGroup(deps, principal, id)).group.id);
  return Number((await findProject(deps, principal, id)).project.id);
}
