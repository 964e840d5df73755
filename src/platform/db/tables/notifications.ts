import type { Generated } from 'kysely';

export type NotificationSourceType = 'Global' | 'Namespace' | 'Project';

/** Event booleans are INTEGER 0/1, null when never set (GitLab's REST API documentation). */
export interface NotificationSettingsTable {
  id: Generated<number>;
  user_id: number;
  source_type: NotificationSourceType;
  source_id: number;
  level: string;
  notification_email: string | null;
  new_note: number | null;
  new_issue: number | null;
  reopen_issue: number | null;
  close_issue: number | null;
  reassign_issue: number | null;
  issue_due: number | null;
  new_merge_request: number | null;
  push_to_merge_request: number | null;
  reopen_merge_request: number | null;
  close_merge_request: number | null;
  reassign_merge_request: number | null;
  merge_merge_request: number | null;
  failed_pipeline: number | null;
  fixed_pipeline: number | null;
  success_pipeline: number | null;
  moved_project: Generated<number>;
  merge_when_pipeline_succeeds: Generated<number>;
  new_epic: number | null;
  created_at: number;
  updated_at: number;
}

/** An explicit subscription to an issue (GitLab's subscriptions): `subscribed` 0 is an unsubscription. */
export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  project_id: number;
  subscribable_type: 'Issue' | 'MergeRequest';
  subscribable_id: number;
  subscribed: number;
  created_at: number;
  updated_at: number;
}

/**
 * A user's subscription to a label (GitLab's subscriptions of type Label): rows exist only while
 * subscribed. `project_id` null: the label everywhere; set: only in that project.
 */
export interface LabelSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  label_id: number;
  project_id: number | null;
  created_at: number;
}

export type EmailState = 'queued' | 'sent' | 'dead';

/** The outbox: one composed message to one recipient, and its delivery. */
export interface EmailOutboxTable {
  id: Generated<number>;
  /** `"Name" <address>` as the From header shows it. */
  from_address: string;
  to_address: string;
  user_id: number | null;
  subject: string;
  message_id: string;
  /** JSON object of further headers. */
  headers: string;
  text_body: string;
  html_body: string;
  state: EmailState;
  attempts: Generated<number>;
  last_error: string | null;
  file: string | null;
  cause_job_id: number | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

export interface NotificationsTables {
  notification_settings: NotificationSettingsTable;
  subscriptions: SubscriptionsTable;
  label_subscriptions: LabelSubscriptionsTable;
  email_outbox: EmailOutboxTable;
}
