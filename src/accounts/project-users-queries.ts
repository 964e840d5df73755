// GET /projects/:id/users (GitLab's `project.team.users`): everyone with a live membership of the
// project or of a group above it, invited through a group the project or one of those groups is shared
// with, or owning its personal namespace; ordered by user id. The issue sidebar offers the same users.
import { sql } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from './access.js';
import { projectTeamUserIdsSql } from '../platform/auth/membership-queries.js';
import { containsPattern } from './like-pattern.js';

export function projectUsersQuery(deps: Deps, project: ProjectRow, filters: { search?: string; skipUsers?: number[] }) {
  let query = deps.db.selectFrom('users').selectAll().where(sql<boolean>`id in (${projectTeamUserIdsSql(Number(project.id), Number(project.namespace_id), deps.clock.now())})`);
  if (filters.search) {
    const pattern = containsPattern(filters.search.toLowerCase());
    query = query.where(sql<boolean>`(lower(name) like ${pattern} escape '\\' or username_lower like ${pattern} escape '\\')`);
  }
  if (filters.skipUsers?.length) query = query.where('id', 'not in', filters.skipUsers);
  return query.orderBy('id', 'asc');
}
