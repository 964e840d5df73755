// Issues closed by merging (GitLab's MergeRequest#closes_issues, MergeRequestsClosingIssues and
// Issues::CloseService from a merge or a push): the closing statements of a merge request's title,
// description and commit messages, kept as links while it targets its project's default branch;
// merging closes the linked issues the merger may change, where the issue's project lets merges
// close issues (autoclose_referenced_issues). A push to the default branch closes what its new
// commits' messages name the same way.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { toAuthUser, userCanOnProject } from '../accounts/api.js';
import { updateIssue } from '../issues/api.js';
import type { MergeRequestRow } from './rows.js';
import { fullProject, latestDiffOf } from './finder.js';
import { readRepository } from './mr-repository.js';
import { versionCommits } from './version-reads.js';
import { closingReferences, type ClosingReference } from './closing-pattern.js';

/** The issues (ids) the references name, seen from `project`; unknown ones are left out. */
async function resolve(deps: Deps, project: ProjectRow, references: ClosingReference[]): Promise<number[]> {
  const namespacePath = project.full_path.includes('/') ? project.full_path.slice(0, project.full_path.lastIndexOf('/')) : '';
  const base = `${deps.config.baseUrl}/`;
  const wanted = new Map<string, Set<number>>();
  for (const reference of references) {
    let path: string | null;
    if ('url' in reference) path = reference.url.startsWith(base) ? reference.url.slice(base.length) : null;
    else if (reference.path === null) path = project.full_path;
    else path = reference.path.includes('/') ? reference.path : `${namespacePath}/${reference.path}`;
    if (path === null) continue;
    const key = path.toLowerCase();
    wanted.set(key, (wanted.get(key) ?? new Set()).add(reference.iid));
  }
  if (wanted.size === 0) return [];
  const projects = await deps.db.selectFrom('projects').select(['id', 'full_path_lower']).where('full_path_lower', 'in', [...wanted.keys()]).execute();
  const ids: number[] = [];
  for (const row of projects) {
    const iids = [...(wanted.get(row.full_path_lower) ?? [])];
    const issues = await deps.db.selectFrom('issues').select('id').where('project_id', '=', Number(row.id)).where('iid', 'in', iids).execute();
    ids.push(...issues.map((issue) => Number(issue.id)));
  }
  return [...new Set(ids)];
}

/** Keep the merge request's closing links in step with its texts (only into the default branch). */
export async function syncClosingIssues(deps: Deps, mr: MergeRequestRow): Promise<void> {
  const target = await fullProject(deps.db, Number(mr.target_project_id));
  if (!target) return;
  let issueIds: number[] = [];
  if (mr.target_branch === target.default_branch) {
    const diff = await latestDiffOf(deps.db, mr);
    const repoPath = await readRepository(deps, target);
    const commits = diff && repoPath ? await versionCommits(repoPath, diff) : [];
    const texts = [mr.title, mr.description, ...commits.map((commit) => commit.message)];
    issueIds = await resolve(deps, target, texts.flatMap((text) => closingReferences(text)));
  }
  const now = deps.clock.now();
  // An edit and the push that refreshes the same merge request can sync at once: on PostgreSQL the
  // second transaction's delete does not see the first one's fresh rows, so the insert skips links
  // already there instead of failing on the primary key.
  await inTransaction(deps.db, async (trx) => {
    let stale = trx.deleteFrom('merge_requests_closing_issues').where('merge_request_id', '=', Number(mr.id));
    if (issueIds.length) stale = stale.where('issue_id', 'not in', issueIds);
    await stale.execute();
    if (issueIds.length) {
      await trx.insertInto('merge_requests_closing_issues')
        .values(issueIds.map((issueId) => ({ merge_request_id: Number(mr.id), issue_id: issueId, created_at: now })))
        .onConflict((conflict) => conflict.columns(['merge_request_id', 'issue_id']).doNothing())
        .execute();
    }
  });
}

/** Close these issues as `actorId`, where the actor may change them and their project allows it. */
async function closeIssues(deps: Deps, actorId: number, issueIds: number[]): Promise<void> {
  if (issueIds.length === 0) return;
  const userRow = await deps.db.selectFrom('users').selectAll().where('id', '=', actorId).executeTakeFirst();
  if (!userRow) return;
  const user = toAuthUser(userRow);
  const issues = await deps.db.selectFrom('issues').selectAll().where('id', 'in', issueIds).where('state', '=', 'opened').execute();
  for (const issue of issues) {
    const project = await fullProject(deps.db, Number(issue.project_id));
    if (!project || Number(project.autoclose_referenced_issues) !== 1) continue;
    if (!(await userCanOnProject(deps.reads, user, project, 'update_issue', deps.clock.now()))) continue;
    await updateIssue(deps, actorId, issue, { stateEvent: 'close' });
  }
}

export async function closeIssuesOnMerge(deps: Deps, actorId: number, mr: MergeRequestRow): Promise<void> {
  const links = await deps.db.selectFrom('merge_requests_closing_issues').select('issue_id').where('merge_request_id', '=', Number(mr.id)).execute();
  await closeIssues(deps, actorId, links.map((link) => Number(link.issue_id)));
}

/** A push to the default branch: closes what the pushed commits' messages name (read by the refresh job). */
export async function closeIssuesByPush(deps: Deps, project: ProjectRow, actorId: number, messages: string[]): Promise<void> {
  const references = messages.flatMap((message) => closingReferences(message));
  await closeIssues(deps, actorId, await resolve(deps, project, references));
}
