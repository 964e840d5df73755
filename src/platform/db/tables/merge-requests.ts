// Tables of the merge-requests feature (migration 20261228T1311-merge-requests).
import type { Generated } from 'kysely';

export type MergeRequestState = 'opened' | 'closed' | 'locked' | 'merged';

/** GitLab's merge_status values (app/models/merge_request.rb state machine `merge_status`). */
export type MergeStatus = 'unchecked' | 'checking' | 'can_be_merged' | 'cannot_be_merged' | 'cannot_be_merged_recheck' | 'cannot_be_merged_rechecking';

export interface MergeRequestsTable {
  id: Generated<number>;
  target_project_id: number;
  iid: number;
  source_project_id: number | null;
  source_branch: string;
  target_branch: string;
  title: string;
  description: string | null;
  state: Generated<MergeRequestState>;
  draft: Generated<number>;
  author_id: number;
  milestone_id: Generated<number | null>;
  discussion_locked: Generated<number | null>;
  squash: Generated<number>;
  force_remove_source_branch: Generated<number | null>;
  should_remove_source_branch: Generated<number | null>;
  allow_collaboration: Generated<number>;
  merge_status: Generated<MergeStatus>;
  merge_check_reason: Generated<'broken_status' | 'conflict' | 'need_rebase' | null>;
  merge_error: Generated<string | null>;
  merge_when_pipeline_succeeds: Generated<number>;
  merge_user_id: Generated<number | null>;
  merge_params: Generated<string | null>;
  latest_merge_request_diff_id: Generated<number | null>;
  merge_commit_sha: Generated<string | null>;
  squash_commit_sha: Generated<string | null>;
  merge_ref_sha: Generated<string | null>;
  rebase_jid: Generated<string | null>;
  head_pipeline_id: Generated<number | null>;
  merged_by_id: Generated<number | null>;
  merged_at: Generated<number | null>;
  closed_by_id: Generated<number | null>;
  closed_at: Generated<number | null>;
  last_edited_at: Generated<number | null>;
  last_edited_by_id: Generated<number | null>;
  updated_by_id: Generated<number | null>;
  time_estimate: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface MergeRequestAssigneesTable {
  merge_request_id: number;
  user_id: number;
  created_at: number;
}

export interface MergeRequestReviewersTable {
  merge_request_id: number;
  user_id: number;
  state: Generated<'unreviewed' | 'reviewed' | 'requested_changes' | 'approved'>;
  created_at: number;
}

export interface MergeRequestLabelLinksTable {
  merge_request_id: number;
  label_id: number;
  created_at: number;
}

export type MergeRequestDiffState = 'empty' | 'collected' | 'overflow';

export interface MergeRequestDiffsTable {
  id: Generated<number>;
  merge_request_id: number;
  base_commit_sha: string | null;
  start_commit_sha: string | null;
  head_commit_sha: string | null;
  state: MergeRequestDiffState;
  real_size: string | null;
  files_count: Generated<number>;
  commits_count: Generated<number>;
  created_at: number;
}

export interface MergeRequestApprovalsTable {
  id: Generated<number>;
  merge_request_id: number;
  user_id: number;
  created_at: number;
}

export interface MergeRequestsClosingIssuesTable {
  merge_request_id: number;
  issue_id: number;
  created_at: number;
}

export interface MergeRequestsTables {
  merge_requests_closing_issues: MergeRequestsClosingIssuesTable;
  merge_requests: MergeRequestsTable;
  merge_request_assignees: MergeRequestAssigneesTable;
  merge_request_reviewers: MergeRequestReviewersTable;
  merge_request_label_links: MergeRequestLabelLinksTable;
  merge_request_diffs: MergeRequestDiffsTable;
  merge_request_approvals: MergeRequestApprovalsTable;
}
