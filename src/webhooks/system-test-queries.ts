// The merge request an administrator's Test of a system hook's merge request events is built from:
// the first one of the projects they are a member of (GitLab's TestHooks::SystemService takes
// MergeRequest.of_projects(current_user.projects).first).
import { sql, type SqlBool } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { memberProjectIdsSql } from '../platform/auth/membership-queries.js';

export async function firstMergeRequestOfMemberProjects(deps: Deps, userId: number): Promise<number | null> {
  const row = await deps.db.selectFrom('merge_requests').select('id')
    .where(sql<SqlBool>`target_project_id in (${memberProjectIdsSql(userId, ACCESS.guest, deps.clock.now())})`)
    .orderBy('id').executeTakeFirst();
  return row ? Number(row.id) : null;
}
