// GET /projects/:id/users (GitLab's `project.team.users`): everyone with a live membership of the
// project, of a group above it, or owning its personal namespace; ordered by user id.
import { sql } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from './access.js';
import { today } from './access.js';
import { containsPattern } from './like-pattern.js';

export function projectUsersQuery(deps: Deps, project: ProjectRow, filters: { search?: string; skipUsers?: number[] }) {
  const live = today(deps.clock.now());
  const members = sql<{ id: number }>`
    with recursive chain(id, parent_id, owner_id) as (
      select id, parent_id, owner_id from namespaces where id = ${project.namespace_id}
      union all
      select n.id, n.parent_id, n.owner_id from namespaces n join chain c on n.id = c.parent_id
    )
    select user_id from members
      where source_type = 'Project' and source_id = ${project.id} and (expires_at is null or expires_at >= ${live})
    union
    select m.user_id from chain c join members m on m.source_type = 'Namespace' and m.source_id = c.id
      where m.expires_at is null or m.expires_at >= ${live}
    union
    select owner_id from chain where owner_id is not null`;
  let query = deps.db.selectFrom('users').selectAll().where(sql<boolean>`id in (${members})`);
  if (filters.search) {
    const pattern = containsPattern(filters.search.toLowerCase());
    query = query.where(sql<boolean>`(lower(name) like ${pattern} escape '\\' or username_lower like ${pattern} escape '\\')`);
  }
  if (filters.skipUsers?.length) query = query.where('id', 'not in', filters.skipUsers);
  return query.orderBy('id', 'asc');
}
