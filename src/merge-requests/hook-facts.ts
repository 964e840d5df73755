// What a Merge Request Hook shows of a merge request beyond its columns (webhooks'
// payloads/merge-request.ts): the facts the API entity computes, read through `deps.db` (the event's
// transaction when the payload is built there), so the two never disagree.
import type { Deps } from '../platform/deps.js';
import type { LabelRow } from '../labels/api.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { findMergeRequestById } from './finder.js';
import { loadLinks } from './present.js';
import { detailedMergeStatus } from './merge-status.js';
import { isDraftTitle } from './draft.js';
import { mergeRequestWebUrl, type MergeRequestRow } from './entities.js';

export interface MergeRequestHookFacts {
  mr: MergeRequestRow;
  target: ProjectRow;
  labels: LabelRow[];
  assigneeIds: number[];
  reviewerIds: number[];
  draft: boolean;
  detailedMergeStatus: string;
  blockingDiscussionsResolved: boolean;
  headPipelineId: number | null;
  /** The diff head: the source branch's commit the latest version saw. */
  headSha: string | null;
  url: string;
}

export async function mergeRequestHookFacts(deps: Deps, mergeRequestId: number): Promise<MergeRequestHookFacts | null> {
  const mr = await findMergeRequestById(deps.db, mergeRequestId);
  if (!mr) return null;
  const links = (await loadLinks(deps, [mr], { from: null })).links(mr);
  return {
    mr,
    target: links.target,
    labels: links.labels,
    assigneeIds: links.assigneeIds,
    reviewerIds: links.reviewerIds,
    draft: isDraftTitle(mr.title),
    detailedMergeStatus: detailedMergeStatus(mr, links.facts),
    blockingDiscussionsResolved: !(links.facts.discussionsMustBeResolved && links.facts.unresolvedThreads > 0),
    headPipelineId: links.headPipeline ? Number(links.headPipeline.pipeline.id) : null,
    headSha: links.latestDiff?.head_commit_sha ?? null,
    url: mergeRequestWebUrl(deps.config.baseUrl, links.target, mr.iid),
  };
}
