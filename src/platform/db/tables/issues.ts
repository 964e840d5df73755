import type { Generated } from 'kysely';

export interface IssuesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  state: Generated<'opened' | 'closed'>;
  issue_type: Generated<'issue' | 'incident'>;
  confidential: Generated<number>;
  author_id: number;
  closed_by_id: number | null;
  closed_at: number | null;
  milestone_id: Generated<number | null>;
  /** YYYY-MM-DD. */
  due_date: Generated<string | null>;
  /** 0/1, or null when never set (GitLab's API shows null). */
  discussion_locked: Generated<number | null>;
  /** Seconds (GitLab's time tracking), 0 for none. */
  time_estimate: Generated<number>;
  /** The creating request's User-Agent and address (GitLab's user_agent_details, shown to administrators). */
  user_agent: Generated<string | null>;
  ip_address: Generated<string | null>;
  created_at: number;
  updated_at: number;
}

export interface NotesTable {
  id: Generated<number>;
  /** Null for a comment on a personal snippet (GitLab's notes of a PersonalSnippet have no project). */
  project_id: number | null;
  noteable_type: 'Issue' | 'AlertManagement::Alert' | 'MergeRequest' | 'Commit' | 'Snippet';
  noteable_id: number;
  author_id: number;
  body: string;
  system: Generated<number>;
  /** 40 hexadecimal digits: the note's own discussion, or the thread it belongs to. */
  discussion_id: string | null;
  /** null for an individual note, 'DiscussionNote' for a note of a thread, 'DiffNote' for a note on a diff line. */
  type: Generated<NoteType>;
  created_at: number;
  updated_at: number;
  /** GitLab's position JSON of a DiffNote: where it shows now, where it was made, where a push changed its line. */
  position: Generated<string | null>;
  original_position: Generated<string | null>;
  change_position: Generated<string | null>;
  /** The line code of the position (`<sha1 of path>_<old>_<new>`). */
  line_code: Generated<string | null>;
  commit_id: Generated<string | null>;
  resolved_at: Generated<number | null>;
  resolved_by_id: Generated<number | null>;
  resolved_by_push: Generated<number>;
  traced_to_diff_id: Generated<number | null>;
  /** A "mentioned in" note's source (issues/cross-reference-visibility.ts): 'Unknown' for an old note that did not parse (hidden). */
  cross_reference_type: Generated<'Issue' | 'MergeRequest' | 'Commit' | 'Unknown' | null>;
  cross_reference_project_id: Generated<number | null>;
  cross_reference_iid: Generated<number | null>;
  cross_reference_sha: Generated<string | null>;
}

export type NoteType = 'DiscussionNote' | 'DiffNote' | null;

/** A project label (project_id set) or a group label (group_id set). */
export interface LabelsTable {
  id: Generated<number>;
  project_id: number | null;
  group_id: number | null;
  title: string;
  /** `#RRGGBB` or `#RGB`. */
  color: string;
  description: string | null;
  priority: number | null;
  archived: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface LabelLinksTable {
  id: Generated<number>;
  label_id: number;
  issue_id: number;
  created_at: number;
}

export interface IssueAssigneesTable {
  issue_id: number;
  user_id: number;
}

/** A project milestone (project_id set) or a group milestone (group_id set). */
export interface MilestonesTable {
  id: Generated<number>;
  project_id: number | null;
  group_id: number | null;
  iid: number;
  title: string;
  description: string | null;
  state: Generated<'active' | 'closed'>;
  start_date: string | null;
  due_date: string | null;
  created_at: number;
  updated_at: number;
}

export interface ResourceLabelEventsTable {
  id: Generated<number>;
  /** The issue or the merge request the label was added to or removed from (one of the two). */
  issue_id: number | null;
  merge_request_id: number | null;
  label_id: number | null;
  user_id: number | null;
  action: 'add' | 'remove';
  created_at: number;
}

/** A link between two issues (GitLab's issue_links); "is blocked by" is kept as the reverse `blocks`. */
export interface IssueLinksTable {
  id: Generated<number>;
  source_id: number;
  target_id: number;
  link_type: Generated<'relates_to' | 'blocks'>;
  created_at: number;
  updated_at: number;
}

/** A state change of an issue or a merge request (one of the two ids is set). */
export interface ResourceStateEventsTable {
  id: Generated<number>;
  issue_id: number | null;
  merge_request_id: number | null;
  user_id: number | null;
  state: 'opened' | 'closed' | 'reopened' | 'merged';
  created_at: number;
}

/** A milestone set on or taken off an issue or a merge request, with its state then. */
export interface ResourceMilestoneEventsTable {
  id: Generated<number>;
  issue_id: number | null;
  merge_request_id: number | null;
  milestone_id: number | null;
  user_id: number | null;
  action: 'add' | 'remove';
  state: string;
  created_at: number;
}

export interface IssuesTables {
  issues: IssuesTable;
  notes: NotesTable;
  labels: LabelsTable;
  label_links: LabelLinksTable;
  issue_assignees: IssueAssigneesTable;
  milestones: MilestonesTable;
  resource_label_events: ResourceLabelEventsTable;
  issue_links: IssueLinksTable;
  resource_state_events: ResourceStateEventsTable;
  resource_milestone_events: ResourceMilestoneEventsTable;
}
