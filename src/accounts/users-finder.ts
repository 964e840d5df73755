// `GET /users` as GitLab's UsersFinder: optional filters applied one after another. A search matches
// names and usernames by substring (every word of three or more characters; shorter queries match a
// whole name or username) and e-mail addresses only whole: the public e-mail for everyone, the
// private one for administrators only (User.search, `with_private_emails`).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { canOnInstance } from '../platform/auth/policies/index.js';
import { noUsers, userSearch, userSearchRank } from './users-finder-queries.js';

export interface UserFilters {
  username?: string;
  search?: string;
  active?: boolean;
  blocked?: boolean;
  /** With `provider`: the user with that external identity. */
  extern_uid?: string;
  provider?: string;
}

// GitLab's Gitlab::SQL::Pattern::MIN_CHARS_FOR_PARTIAL_MATCHING.
const MIN_PARTIAL = 3;

export function usersQuery(deps: Deps, viewer: AuthUser | null, filters: UserFilters) {
  let query = deps.db.selectFrom('users').selectAll();
  if (filters.username) query = query.where('username_lower', '=', filters.username.toLowerCase());
  if (filters.active) query = query.where('state', '=', 'active');
  if (filters.blocked) query = query.where('state', '=', 'blocked');
  if (filters.extern_uid && filters.provider) {
    query = query.where('id', 'in', deps.db.selectFrom('identities').select('user_id').where('provider', '=', filters.provider).where('extern_uid', '=', filters.extern_uid));
  }
  if (filters.search === undefined || filters.search === '') return query.orderBy('id', 'desc');
  const term = filters.search.replace(/^@/, '').trim().toLowerCase();
  if (term === '') return query.where(noUsers());
  const words = term.split(/\s+/).filter((word) => word.length >= MIN_PARTIAL);
  // Exact matches first (public e-mail, username, name), then by name, as GitLab orders a search.
  return query
    .where(userSearch(term, words, canOnInstance(viewer, 'admin_all_resources')))
    .orderBy(userSearchRank(term))
    .orderBy('name')
    .orderBy('id');
}
