// Which events a viewer may see (gitlab-rest.md §5.3), as SQL applied BEFORE paging so pages are never
// short and X-Total counts only visible events (unlike GitLab, which filters after slicing).
//   - the event's project must be readable: membership (direct, inherited, personal namespace owner),
//     or public/internal visibility;
//   - pushes need download_code: in a private project that is Reporter and above;
//   - an event on a confidential issue, or a comment on one, needs Reporter and above or authorship
//     of the issue (GitLab's read_issue);
//   - administrators see everything of existing projects.
import { sql, type Expression, type SqlBool } from 'kysely';
import { today } from '../accounts/access.js';
import { authorizedProjectIdsSql } from '../accounts/access.js';
import { ACCESS } from '../accounts/access-levels.js';

export interface Viewer {
  id: number;
  admin: boolean;
}

/** Projects where the user holds at least `minimum` through membership (the personal owner holds Owner). */
export function projectIdsWithLevelSql(userId: number, nowMs: number, minimum: number) {
  const day = today(nowMs);
  return sql<{ id: number }>`
    with recursive member_namespaces(id) as (
      select source_id from members
        where source_type = 'Namespace' and user_id = ${userId} and access_level >= ${minimum}
          and (expires_at is null or expires_at >= ${day})
      union
      select id from namespaces where kind = 'user' and owner_id = ${userId}
      union
      select n.id from namespaces n join member_namespaces m on n.parent_id = m.id
    )
    select id from projects where namespace_id in (select id from member_namespaces)
    union
    select source_id from members
      where source_type = 'Project' and user_id = ${userId} and access_level >= ${minimum}
        and (expires_at is null or expires_at >= ${day})`;
}

/** The membership set GitLab calls `authorized_projects` (what `scope=all` lists). */
export function memberProjectIdsSql(userId: number, nowMs: number) {
  return authorizedProjectIdsSql(userId, nowMs);
}

/** Predicate on `e.*` (alias `e`) that keeps the events `viewer` may see. */
export function visibleEventSql(viewer: Viewer, nowMs: number): Expression<SqlBool> {
  if (viewer.admin) return sql<SqlBool>`e.project_id in (select id from projects)`;
  const reporter = projectIdsWithLevelSql(viewer.id, nowMs, ACCESS.reporter);
  const readable = sql`(e.project_id in (${memberProjectIdsSql(viewer.id, nowMs)})
    or e.project_id in (select id from projects where visibility in ('public', 'internal')))`;
  const restricted = sql`(
    (e.action = 'pushed' and e.project_id in (select id from projects where visibility = 'private'))
    or (e.target_type = 'Issue' and exists (
      select 1 from issues i where i.id = e.target_id and i.confidential = 1 and i.author_id <> ${viewer.id}))
    or (e.target_type = 'Note' and exists (
      select 1 from notes n join issues i on n.noteable_type = 'Issue' and i.id = n.noteable_id
      where n.id = e.target_id and i.confidential = 1 and i.author_id <> ${viewer.id})))`;
  return sql<SqlBool>`(${readable} and (e.project_id in (${reporter}) or not ${restricted}))`;
}
