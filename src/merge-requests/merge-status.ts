// The merge status vocabulary of GitLab 16: `merge_status` as the API shows it
// (MergeRequest#public_merge_status) and `detailed_merge_status`
// (MergeRequests::Mergeability::DetailedMergeStatusService): the check states first, then the first
// failing check in GitLab's order with CI skipped, then the CI check, else `mergeable`.
import type { MergeStatus } from '../platform/db/tables/merge-requests.js';
import type { MergeRequestRow } from './rows.js';

/** What the checks need besides the row, read for a page of merge requests at once (present.ts). */
export interface MergeFacts {
  /** Unresolved resolvable threads (review's hook; 0 without it). */
  unresolvedThreads: number;
  /** The project's only_allow_merge_if_all_discussions_are_resolved. */
  discussionsMustBeResolved: boolean;
  /** Approvals still missing (the project's approvals_before_merge less those given). */
  approvalsLeft: number;
  /** CI must pass (only_allow_merge_if_pipeline_succeeds, or an armed automatic merge). */
  ciRequired: boolean;
  /** Whether `skipped` counts as passing (allow_merge_on_skipped_pipeline). */
  skippedPasses: boolean;
  /** The head pipeline's status for the diff head, or null without one. */
  pipelineStatus: string | null;
}

export const NO_FACTS: MergeFacts = { unresolvedThreads: 0, discussionsMustBeResolved: false, approvalsLeft: 0, ciRequired: false, skippedPasses: false, pipelineStatus: null };

/** `cannot_be_merged_rechecking` reads as `checking` (public_merge_status). */
export function publicMergeStatus(status: MergeStatus): string {
  return status === 'cannot_be_merged_rechecking' ? 'checking' : status;
}

const ACTIVE_PIPELINE = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled']);

/** CheckCiStatusService: no pipeline fails; `skipped` passes only when the project allows it. */
export function ciPasses(facts: MergeFacts): boolean {
  if (!facts.ciRequired) return true;
  if (facts.pipelineStatus === 'success') return true;
  return facts.pipelineStatus === 'skipped' && facts.skippedPasses;
}

/** The first failing check other than CI, or null (execute_merge_checks with skip_ci_check). */
export function failingCheck(mr: MergeRequestRow, facts: MergeFacts): string | null {
  if (mr.state !== 'opened') return 'not_open';
  if (Number(mr.draft) === 1) return 'draft_status';
  if (mr.merge_check_reason) return mr.merge_check_reason;
  if (facts.discussionsMustBeResolved && facts.unresolvedThreads > 0) return 'discussions_not_resolved';
  if (facts.approvalsLeft > 0) return 'not_approved';
  return null;
}

export function detailedMergeStatus(mr: MergeRequestRow, facts: MergeFacts): string {
  if (mr.merge_status === 'checking' || mr.merge_status === 'cannot_be_merged_rechecking') return 'checking';
  if (mr.merge_status === 'unchecked' || mr.merge_status === 'cannot_be_merged_recheck') return 'unchecked';
  const failing = failingCheck(mr, facts);
  if (failing) return failing;
  if (!ciPasses(facts)) return facts.pipelineStatus !== null && ACTIVE_PIPELINE.has(facts.pipelineStatus) ? 'ci_still_running' : 'ci_must_pass';
  return 'mergeable';
}
