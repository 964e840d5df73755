// Opening a merge request (GitLab's MergeRequests::CreateService and BuildService): the branches must
// exist and differ, only one open merge request per source → target pair (held by a unique index,
// GitLab's 409), the next per-project iid, the metadata the caller may set, the `created` event, then
// the first diff version and a mergeability check.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import { StatusError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import { publishMergeRequestEvent } from './publish-events.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { MergeRequestRow } from './entities.js';
import type { MergeRequestMetadata } from './mr-params.js';
import { applyLabels, applyUsers } from './apply-metadata.js';
import { isDraftTitle } from './draft.js';
import { openMergeRequestFor } from './finder.js';
import { branchHead, readRepository } from './mr-repository.js';
import { recordDiffVersion } from './record-diff-version.js';
import { scheduleMergeabilityCheck } from './check-mergeability.js';
import { syncClosingIssues } from './closing-issues.js';

export interface CreateMergeRequestInput {
  source: ProjectRow;
  /** The target project with every column (its settings decide squash and branch deletion). */
  target: ProjectRow;
  authorId: number;
  title: string;
  description?: string | null;
  sourceBranch: string;
  targetBranch: string;
  metadata?: MergeRequestMetadata;
  removeSourceBranch?: boolean;
  allowCollaboration?: boolean;
  squash?: boolean;
}

/** GitLab's 409 for a second open merge request of the same branches. */
export function duplicateError(iid: number): StatusError {
  return new StatusError(409, [`Another open merge request already exists for this source branch: !${iid}`]);
}

/** The model's `base` errors (merge_request.rb validations), in GitLab's order. */
async function validateBranches(deps: Deps, input: CreateMergeRequestInput): Promise<void> {
  const sameProject = Number(input.source.id) === Number(input.target.id);
  if (sameProject && input.sourceBranch === input.targetBranch) throw new StatusError(422, ["You can't use same project/branch for source and target"]);
  const existing = await openMergeRequestFor(deps.db, { targetProjectId: Number(input.target.id), sourceProjectId: Number(input.source.id), sourceBranch: input.sourceBranch, targetBranch: input.targetBranch });
  if (existing) throw duplicateError(existing.iid);
  if (input.target.merge_requests_access_level === 'disabled') throw new StatusError(422, ['Target project has disabled merge requests']);
  const [sourceRepo, targetRepo] = await Promise.all([readRepository(deps, input.source), readRepository(deps, input.target)]);
  const [sourceHead, targetHead] = await Promise.all([branchHead(sourceRepo, input.sourceBranch), branchHead(targetRepo, input.targetBranch)]);
  const errors: string[] = [];
  if (sourceHead === null) errors.push(`Source branch "${input.sourceBranch}" does not exist`);
  if (targetHead === null) errors.push(`Target branch "${input.targetBranch}" does not exist`);
  if (errors.length) throw new StatusError(422, errors);
}

/** squash_option decides over the flag: `always` and `never` force it, `default_on` sets it when absent. */
function squashFor(target: ProjectRow, requested: boolean | undefined): boolean {
  if (target.squash_option === 'always') return true;
  if (target.squash_option === 'never') return false;
  return requested ?? target.squash_option === 'default_on';
}

export async function createMergeRequest(deps: Deps, input: CreateMergeRequestInput): Promise<MergeRequestRow> {
  await validateBranches(deps, input);
  const now = deps.clock.now();
  const targetId = Number(input.target.id);
  let created: MergeRequestRow;
  try {
    created = await inTransaction(deps.db, async (trx) => {
      const iid = await nextInternalId(trx, targetId, 'merge_requests');
      const mr = await trx
        .insertInto('merge_requests')
        .values({
          target_project_id: targetId,
          iid,
          source_project_id: Number(input.source.id),
          source_branch: input.sourceBranch,
          target_branch: input.targetBranch,
          title: input.title,
          description: input.description ?? null,
          draft: isDraftTitle(input.title) ? 1 : 0,
          author_id: input.authorId,
          milestone_id: input.metadata?.milestoneId ?? null,
          squash: squashFor(input.target, input.squash) ? 1 : 0,
          force_remove_source_branch: (input.removeSourceBranch ?? Number(input.source.remove_source_branch_after_merge) === 1) ? 1 : 0,
          allow_collaboration: input.allowCollaboration && Number(input.source.id) !== targetId ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (input.metadata) {
        await applyLabels(trx, input.target, Number(mr.id), input.authorId, input.metadata, now);
        await applyUsers(trx, 'merge_request_assignees', Number(mr.id), input.metadata.assigneeIds, now);
        await applyUsers(trx, 'merge_request_reviewers', Number(mr.id), input.metadata.reviewerIds, now);
      }
      await recordEvent(trx, deps.clock, { projectId: targetId, authorId: input.authorId, action: 'created', target: { type: 'MergeRequest', id: Number(mr.id), iid, title: mr.title } });
      await publishMergeRequestEvent(deps, trx, 'merge_request.opened', mr, input.authorId);
      // The check also records the first version if this process dies before it does (below).
      await scheduleMergeabilityCheck(trx, deps, Number(mr.id));
      return mr;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent request opened the same pair first (merge_requests_one_open_per_branches).
    const winner = await openMergeRequestFor(deps.db, { targetProjectId: targetId, sourceProjectId: Number(input.source.id), sourceBranch: input.sourceBranch, targetBranch: input.targetBranch });
    throw duplicateError(winner?.iid ?? 0);
  }
  const version = await recordDiffVersion(deps, created, input.target);
  // Woken only now: a check started before the first version is recorded would record it as well
  // (a second diff of the same branches, thrown away), and the two would share the CPU.
  deps.pokeWorker();
  const mr = version.kind === 'recorded' ? { ...created, latest_merge_request_diff_id: Number(version.diff.id) } : created;
  await syncClosingIssues(deps, mr);
  return mr;
}
