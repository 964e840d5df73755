// What a notification about a merge request needs to know, read when its job runs (events carry
// ids only): the merge request in its target project, assignees and reviewers, and the people the
// thread involves (GitLab's MergeRequest#participants: author, assignees, reviewers, commenters,
// mentioned users). Readable by whoever may read the target project's merge requests.
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { MergeRequestsTable } from '../platform/db/tables/merge-requests.js';
import { canOnProject, type PolicySubject } from '../platform/auth/policies/index.js';
import { discussionPeople, groupChain, type ThreadContext } from './issue-context.js';

export type MergeRequestRow = Selectable<MergeRequestsTable>;

export interface MergeRequestContext extends ThreadContext {
  mergeRequest: MergeRequestRow;
}

async function userIdsOf(deps: Deps, table: 'merge_request_assignees' | 'merge_request_reviewers', mergeRequestId: number): Promise<number[]> {
  const rows = await deps.db.selectFrom(table).select('user_id').where('merge_request_id', '=', mergeRequestId).orderBy('user_id').execute();
  return rows.map((row) => Number(row.user_id));
}

export async function loadMergeRequestContext(deps: Deps, mergeRequestId: number): Promise<MergeRequestContext | null> {
  const mergeRequest = await deps.db.selectFrom('merge_requests').selectAll().where('id', '=', mergeRequestId).executeTakeFirst();
  if (!mergeRequest) return null;
  const project = await deps.db.selectFrom('projects').selectAll().where('id', '=', mergeRequest.target_project_id).executeTakeFirst();
  if (!project) return null;
  const namespace = await deps.db.selectFrom('namespaces').selectAll().where('id', '=', project.namespace_id).executeTakeFirstOrThrow();
  const [groupIds, assigneeIds, reviewerIds, discussion, labels] = await Promise.all([
    groupChain(deps, namespace),
    userIdsOf(deps, 'merge_request_assignees', mergeRequestId),
    userIdsOf(deps, 'merge_request_reviewers', mergeRequestId),
    discussionPeople(deps, 'MergeRequest', mergeRequestId, mergeRequest.description),
    deps.db.selectFrom('merge_request_label_links').select('label_id').where('merge_request_id', '=', mergeRequestId).execute(),
  ]);
  const participantIds = [...new Set([Number(mergeRequest.author_id), ...assigneeIds, ...reviewerIds, ...discussion])];
  return {
    type: 'MergeRequest',
    id: mergeRequestId,
    description: mergeRequest.description,
    mergeRequest,
    project,
    namespace,
    groupIds,
    assigneeIds,
    reviewerIds,
    participantIds,
    labelIds: labels.map((row) => Number(row.label_id)),
    readable: (subject: PolicySubject) => canOnProject(subject, 'read_merge_request'),
  };
}
