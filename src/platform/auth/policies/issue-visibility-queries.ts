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
// The SQL is written against `issues as i` joined to `projects as p`. The confidential test names the
// project as `i.project_id`, not `p.id` (the same value): a condition on the issue alone filters the
// scan of the issues, where one naming `p` is a join filter that PostgreSQL costs for every pair of
// issue and project, which made it sort every visible issue rather than walk the index in order
// (GET /issues?scope=all at 10⁵ issues: 37 ms → 0.6 ms a page; docs/performance.md, "Issues and events").
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AuthUser } from '../principal.js';
import { memberProjectIdsSql } from '../membership-queries.js';
import { minimumProjectLevel } from './abilities.js';

// Merge request visibility reads the same memberships.
export { memberProjectIdsSql };

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
      or i.project_id in (${reporters})))`;
}
