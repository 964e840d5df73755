// read_merge_request (abilities.ts, policy.ts) as SQL, for listings across many projects
// (GET /merge_requests, GET /groups/:id/merge_requests, search): a merge request is read by whoever
// may read its target project's merge requests — Reporters and above of a private project, any
// reader of a public or internal one while the merge requests and repository features are
// `enabled`, members (Guests of a non-private project) while they are `private`, nobody while either
// is `disabled`, administrators while neither is. Written against `merge_requests as m` joined to
// `projects as p` (the target project).
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AuthUser } from '../principal.js';
import { ACCESS } from '../access-levels.js';
import { minimumProjectLevel } from './abilities.js';
import { memberProjectIdsSql } from './issue-visibility-queries.js';

export function readableMergeRequestSql(viewer: AuthUser | null, nowMs: number): RawBuilder<SqlBool> {
  const enabled = sql`p.merge_requests_access_level <> 'disabled' and p.repository_access_level <> 'disabled'`;
  if (viewer && viewer.state !== 'active') return sql<SqlBool>`1 = 0`;
  if (viewer?.admin) return sql<SqlBool>`(${enabled})`;
  const open = sql`p.merge_requests_access_level = 'enabled' and p.repository_access_level = 'enabled'`;
  if (!viewer) return sql<SqlBool>`(p.visibility = 'public' and ${open})`;
  const readers = memberProjectIdsSql(viewer.id, minimumProjectLevel('read_merge_request'), nowMs);
  const guests = memberProjectIdsSql(viewer.id, ACCESS.guest, nowMs);
  return sql<SqlBool>`(${enabled} and (
    p.id in (${readers})
    or (p.visibility in ('public', 'internal') and ${open})
    or (p.visibility in ('public', 'internal') and p.id in (${guests}))))`;
}
