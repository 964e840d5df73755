// GitLab's event vocabulary (gitlab-rest.md §5): stored actions and target types.
export const EVENT_ACTIONS = ['created', 'updated', 'closed', 'reopened', 'pushed', 'commented', 'merged', 'joined', 'left', 'destroyed', 'expired', 'approved'] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

export const EVENT_TARGET_TYPES = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
} as const;
export type EventTargetType = (typeof EVENT_TARGET_TYPES)[keyof typeof EVENT_TARGET_TYPES];

export interface PushData {
  commit_count: number;
  action: 'created' | 'removed' | 'pushed';
  ref_type: 'branch' | 'tag';
  commit_from: string | null;
  commit_to: string | null;
  ref: string;
  commit_title: string | null;
  ref_count: number | null;
}

/** Filter values of `target_type` (lower case) as the API accepts them (gitlab-rest.md §5.2). */
export const TARGET_TYPE_FILTERS = Object.keys(EVENT_TARGET_TYPES) as Array<keyof typeof EVENT_TARGET_TYPES>;

/**
 * GitLab's `Event#action_name` (gitlab-rest.md §5.4), first match wins. Pushes are told apart by the
 * ref change: a new ref has no `commit_from`, a deleted ref no `commit_to`.
 */
export function actionName(event: { action: string; target_type: string | null; push_data: PushData | null }): string {
  if (event.action === 'pushed') {
    if (event.push_data?.action === 'created') return 'pushed new';
    if (event.push_data?.action === 'removed') return 'deleted';
    return 'pushed to';
  }
  switch (event.action) {
    case 'closed': return 'closed';
    case 'merged': return 'accepted';
    case 'joined': return 'joined';
    case 'left': return 'left';
    case 'expired': return 'removed due to membership expiration from';
    case 'destroyed': return 'destroyed';
    case 'commented': return 'commented on';
    case 'approved': return 'approved';
    case 'created': return event.target_type === null ? 'created' : 'opened';
    default: return 'opened';
  }
}
