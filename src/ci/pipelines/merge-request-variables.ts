// GitLab's CI_MERGE_REQUEST_* variables of a merge request pipeline (MergeRequest#predefined_variables
// and the pipeline's own: event type, diff id and base): read from the merge request's tables when the
// pipeline is created (rules see them) and again when a runner takes one of its jobs.
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/database.js';
import { isProtectedRef } from './protected-ref.js';

export interface MergeRequestPipelineFacts {
  id: number;
  iid: number;
  sourceBranch: string;
  /** The merge request's ref, which is the pipeline's (`refs/merge-requests/<iid>/head`). */
  refPath: string;
  variables: Record<string, string>;
}

export const mergeRequestRef = (iid: number) => `refs/merge-requests/${iid}/head`;

/** The facts of a merge request by id, null when it is gone or not of this project. */
export async function mergeRequestPipelineFacts(deps: Deps, db: Executor, mergeRequestId: number): Promise<MergeRequestPipelineFacts | null> {
  const mr = await db.selectFrom('merge_requests').selectAll().where('id', '=', mergeRequestId).executeTakeFirst();
  if (!mr) return null;
  const [projects, diff, assignees, labels, milestone] = await Promise.all([
    db.selectFrom('projects').select(['id', 'full_path']).where('id', 'in', [Number(mr.target_project_id), Number(mr.source_project_id ?? mr.target_project_id)]).execute(),
    mr.latest_merge_request_diff_id === null ? undefined : db.selectFrom('merge_request_diffs').select(['id', 'base_commit_sha']).where('id', '=', Number(mr.latest_merge_request_diff_id)).executeTakeFirst(),
    db.selectFrom('merge_request_assignees as a').innerJoin('users as u', 'u.id', 'a.user_id').select('u.username').where('a.merge_request_id', '=', Number(mr.id)).orderBy('a.created_at').orderBy('u.id').execute(),
    db.selectFrom('merge_request_label_links as l').innerJoin('labels as t', 't.id', 'l.label_id').select('t.title').where('l.merge_request_id', '=', Number(mr.id)).orderBy('t.title').execute(),
    mr.milestone_id === null ? undefined : db.selectFrom('milestones').select('title').where('id', '=', Number(mr.milestone_id)).executeTakeFirst(),
  ]);
  const base = deps.config.baseUrl.replace(/\/$/, '');
  const target = projects.find((row) => Number(row.id) === Number(mr.target_project_id));
  const source = projects.find((row) => Number(row.id) === Number(mr.source_project_id ?? mr.target_project_id)) ?? target;
  if (!target || !source) return null;
  const refPath = mergeRequestRef(Number(mr.iid));
  const [targetProtected, sourceProtected] = await Promise.all([
    isProtectedRef(db, Number(target.id), mr.target_branch, false),
    isProtectedRef(db, Number(source.id), mr.source_branch, false),
  ]);
  const variables: Record<string, string> = {
    CI_MERGE_REQUEST_ID: String(mr.id),
    CI_MERGE_REQUEST_IID: String(mr.iid),
    CI_MERGE_REQUEST_REF_PATH: refPath,
    CI_MERGE_REQUEST_PROJECT_ID: String(target.id),
    CI_MERGE_REQUEST_PROJECT_PATH: target.full_path,
    CI_MERGE_REQUEST_PROJECT_URL: `${base}/${target.full_path}`,
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: mr.target_branch,
    CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED: String(targetProtected),
    CI_MERGE_REQUEST_TITLE: mr.title,
    CI_MERGE_REQUEST_DESCRIPTION: mr.description ?? '',
    CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED: 'false',
    ...(assignees.length ? { CI_MERGE_REQUEST_ASSIGNEES: assignees.map((row) => row.username).join(',') } : {}),
    ...(milestone ? { CI_MERGE_REQUEST_MILESTONE: milestone.title } : {}),
    ...(labels.length ? { CI_MERGE_REQUEST_LABELS: labels.map((row) => row.title).join(',') } : {}),
    CI_MERGE_REQUEST_SQUASH_ON_MERGE: String(Number(mr.squash) === 1),
    CI_MERGE_REQUEST_DRAFT: String(Number(mr.draft) === 1),
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: String(source.id),
    CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: source.full_path,
    CI_MERGE_REQUEST_SOURCE_PROJECT_URL: `${base}/${source.full_path}`,
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: mr.source_branch,
    CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED: String(sourceProtected),
    // Kiln runs GitLab's "detached" merge request pipelines (the source head, not a merged result).
    CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
    ...(diff ? { CI_MERGE_REQUEST_DIFF_ID: String(diff.id), ...(diff.base_commit_sha ? { CI_MERGE_REQUEST_DIFF_BASE_SHA: diff.base_commit_sha } : {}) } : {}),
  };
  return { id: Number(mr.id), iid: Number(mr.iid), sourceBranch: mr.source_branch, refPath, variables };
}
