// GET /projects/:id/starrers: who starred a project, most recent first (GitLab's UsersStarProjectsFinder).
import type { Deps } from '../platform/deps.js';
import { containsPattern } from './like-pattern.js';

export function starrersQuery(deps: Deps, projectId: number, search: string | undefined) {
  let query = deps.db
    .selectFrom('users_star_projects as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['u.id', 'u.username', 'u.name', 'u.state', 'u.avatar', 's.created_at as starred_at', 's.id as star_id'])
    .where('s.project_id', '=', projectId);
  if (search) {
    const pattern = containsPattern(search.toLowerCase());
    query = query.where((eb) => eb.or([eb('u.username_lower', 'like', pattern), eb(eb.fn('lower', ['u.name']), 'like', pattern)]));
  }
  return query.orderBy('s.id', 'desc');
}
