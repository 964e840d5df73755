// Finding merge requests through their target project, and the lookups the actions share.
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import { NotFoundError } from '../platform/errors.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { MergeRequestDiffRow, MergeRequestRow } from './entities.js';

/** A merge request by its target project and iid: GitLab's `404 Merge Request Not Found` otherwise. */
export async function findMergeRequest(db: Executor, projectId: number, iid: number): Promise<MergeRequestRow> {
  const mr = await db.selectFrom('merge_requests').selectAll().where('target_project_id', '=', projectId).where('iid', '=', iid).executeTakeFirst();
  if (!mr) throw new NotFoundError('Merge Request');
  return mr;
}

export async function findMergeRequestById(db: Executor, id: number): Promise<MergeRequestRow | undefined> {
  return db.selectFrom('merge_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function latestDiffOf(db: Executor, mr: MergeRequestRow): Promise<MergeRequestDiffRow | null> {
  if (mr.latest_merge_request_diff_id === null) return null;
  return (await db.selectFrom('merge_request_diffs').selectAll().where('id', '=', Number(mr.latest_merge_request_diff_id)).executeTakeFirst()) ?? null;
}

/** The project row with every column, read again rather than taken from the route's look-up. */
export async function fullProject(db: Executor, projectId: number): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
}

/** The open merge request of these branches, if there is one (GitLab's validate_branches). */
export async function openMergeRequestFor(db: Executor, pair: { targetProjectId: number; sourceProjectId: number; sourceBranch: string; targetBranch: string }, exceptId?: number): Promise<MergeRequestRow | undefined> {
  let query = db
    .selectFrom('merge_requests')
    .selectAll()
    .where('target_project_id', '=', pair.targetProjectId)
    .where('source_project_id', '=', pair.sourceProjectId)
    .where('source_branch', '=', pair.sourceBranch)
    .where('target_branch', '=', pair.targetBranch)
    .where('state', '=', 'opened');
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return query.executeTakeFirst();
}

export function assigneeIdsOf(deps: Deps, mrId: number): Promise<number[]> {
  return deps.db.selectFrom('merge_request_assignees').select('user_id').where('merge_request_id', '=', mrId).orderBy('created_at').orderBy('user_id').execute().then((rows) => rows.map((row) => Number(row.user_id)));
}

export function reviewerIdsOf(deps: Deps, mrId: number): Promise<number[]> {
  return deps.db.selectFrom('merge_request_reviewers').select('user_id').where('merge_request_id', '=', mrId).orderBy('created_at').orderBy('user_id').execute().then((rows) => rows.map((row) => Number(row.user_id)));
}
