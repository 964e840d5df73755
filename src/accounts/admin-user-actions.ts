// The state changes an administrator makes to a user from the admin area, each by the API's own
// action (so the rules and refusals are GitLab's): which states allow it, and the sentence shown after.
import type { Deps } from '../platform/deps.js';
import type { AuthUser, Principal } from '../platform/auth/principal.js';
import type { UserRow } from './lookup.js';
import { blockUser } from './block-user.js';
import { unblockUser } from './unblock-user.js';
import { deactivateUser } from './deactivate-user.js';
import { activateUser } from './activate-user.js';
import { approveUser } from './approve-user.js';
import { rejectUser } from './reject-user.js';

/** What each state lets an administrator do, with the action's outcome sentence. */
export const USER_ACTIONS: Record<string, { label: string; states: string[]; done: string; run: (deps: Deps, actor: Principal, user: UserRow) => Promise<unknown> }> = {
  approve: { label: 'Approve', states: ['blocked_pending_approval'], done: 'Successfully approved', run: (deps, _actor, user) => approveUser(deps, user) },
  reject: { label: 'Reject', states: ['blocked_pending_approval'], done: 'You have rejected the user; the account is being deleted', run: (deps, actor, user) => rejectUser(deps, actor, user) },
  block: { label: 'Block', states: ['active', 'deactivated'], done: 'Successfully blocked', run: (deps, actor, user) => blockUser(deps, actor, user) },
  unblock: { label: 'Unblock', states: ['blocked'], done: 'Successfully unblocked', run: (deps, _actor, user) => unblockUser(deps, user) },
  deactivate: { label: 'Deactivate', states: ['active'], done: 'Successfully deactivated', run: (deps, _actor, user) => deactivateUser(deps, user) },
  activate: { label: 'Activate', states: ['deactivated'], done: 'Successfully activated', run: (deps, _actor, user) => activateUser(deps, user) },
};

/** The signed-in administrator as the actor the API's actions take. */
export function sessionPrincipal(user: AuthUser): Principal {
  return { user, scopes: ['api'], via: 'session', tokenId: null };
}
