// What `git push` prints about merge requests once the refs moved (GitLab's
// MergeRequests::GetUrlsService and gitlab-shell's message): per pushed branch that is not the default
// one and was not deleted, the open merge request from it, or the link that starts one. Only when the
// project prints them (`printing_merge_request_link_enabled`) and has merge requests at all.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { BRANCH_PREFIX, ZERO_OID } from '../repositories/api.js';

interface PushedRef {
  newId: string;
  ref: string;
}

export async function pushMessages(deps: Deps, project: ProjectRow, updates: PushedRef[]): Promise<string[]> {
  if (Number(project.printing_merge_request_link_enabled) !== 1 || project.merge_requests_access_level === 'disabled') return [];
  const branches = [...new Set(updates
    .filter((update) => update.newId !== ZERO_OID && update.ref.startsWith(BRANCH_PREFIX))
    .map((update) => update.ref.slice(BRANCH_PREFIX.length))
    .filter((branch) => branch !== project.default_branch))];
  if (branches.length === 0) return [];
  const open = await deps.db
    .selectFrom('merge_requests as m')
    .innerJoin('projects as p', 'p.id', 'm.target_project_id')
    .select(['m.source_branch', 'm.iid', 'p.full_path'])
    .where('m.source_project_id', '=', Number(project.id))
    .where('m.source_branch', 'in', branches)
    .where('m.state', '=', 'opened')
    .orderBy('m.id')
    .execute();
  const projectUrl = `${deps.config.baseUrl}/${project.full_path}`;
  const lines = [''];
  for (const branch of branches) {
    const existing = open.find((row) => row.source_branch === branch);
    if (existing) lines.push(`View merge request for ${branch}:`, `  ${deps.config.baseUrl}/${existing.full_path}/-/merge_requests/${existing.iid}`, '');
    else lines.push(`To create a merge request for ${branch}, visit:`, `  ${projectUrl}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${encodeURIComponent(branch)}`, '');
  }
  return lines;
}
