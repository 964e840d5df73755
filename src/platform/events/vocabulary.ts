// GitLab's event vocabulary (GitLab's REST API documentation) as stored in the events table: actions, target
// types and the data of a push.
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
  wiki: 'WikiPage::Meta',
} as const;
/**
 * A comment's event names the note's class, as GitLab's do: a plain comment `Note`, a note of a
 * thread `DiscussionNote`, a comment on a diff line `DiffNote`. All three are the `note` filter.
 */
export const NOTE_TARGET_TYPES = ['Note', 'DiscussionNote', 'DiffNote'] as const;
export type EventTargetType = (typeof EVENT_TARGET_TYPES)[keyof typeof EVENT_TARGET_TYPES] | (typeof NOTE_TARGET_TYPES)[number];

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
