// The issue policy (issue-policy.ts, abilities.ts) as SQL, for listings across many projects
// (GET /issues, GET /groups/:id/issues, label counts): filtering before paging keeps pages full and
// X-Total right, and never hands a confidential issue to a caller the policy would refuse.
//   - the project must let the caller read issues (read_issue): a member (Guest and above, inherited
//     from ancestor groups, or the owner of the personal namespace), or a public project, or an
//     internal one for signed-in users; a `disabled` issues feature hides them from everyone, a
//     `private` one from non-members (administrators excepted);
//   - a confidential issue also needs read_confidential_issues there (Reporter and above), or to be
//     the caller's own (author) or assigned to them;
//   - administrators read every issue of a project whose issues feature is not disabled.
// The SQL is written against `issues as i` joined to `projects as p`.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AuthUser } from '../principal.js';
import { today } from '../access-scope.js';
import { minimumProjectLevel } from './abilities.js';

/** Ids of the projects where the user is a member with at least `level` (direct, inherited or personal owner). */
export function memberProjectIdsSql(userId: number, level: number, nowMs: number): RawBuilder<{ id: number }> {
  const day = today(nowMs);
  return sql<{ id: number }>`
    with recursive member_namespaces(id) as (
      select source_id from members
        where source_type = 'Namespace' and user_id = ${userId} and access_level >= ${level} and (expires_at is null or expires_at >= ${day})
      union
      select id from namespaces where kind = 'user' and owner_id = ${userId}
      union
      select n.id from namespaces n join member_namespaces m on n.parent_id = m.id
    )
    select id from projects where namespace_id in (select id from member_namespaces)
    union
    select source_id from members
      where source_type = 'Project' and user_id = ${userId} and access_level >= ${level} and (expires_at is null or expires_at >= ${day})`;
}

/** True for the rows of `issues as i` join `projects as p` that the viewer may read. */
export function readableIssueSql(viewer: AuthUser | null, nowMs: number): RawBuilder<SqlBool> {
  if (viewer && viewer.state !== 'active') return sql<SqlBool>`1 = 0`;
  if (viewer?.admin) return sql<SqlBool>`p.issues_access_level <> 'disabled'`;
  if (!viewer) return sql<SqlBool>`(p.visibility = 'public' and p.issues_access_level = 'enabled' and i.confidential = 0)`;
  const members = memberProjectIdsSql(viewer.id, minimumProjectLevel('read_issue'), nowMs);
  const reporters = memberProjectIdsSql(viewer.id, minimumProjectLevel('read_confidential_issues'), nowMs);
  return sql<SqlBool>`(p.issues_access_level <> 'disabled'
    and (p.id in (${members})
      or (p.visibility in ('public', 'internal') and p.issues_access_level = 'enabled'))
    and (i.confidential = 0
      or i.author_id = ${viewer.id}
      or exists (select 1 from issue_assignees ia where ia.issue_id = i.id and ia.user_id = ${viewer.id})
      or p.id in (${reporters})))`;
}
