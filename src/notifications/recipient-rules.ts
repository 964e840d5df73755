// Who among the candidates gets a notification, as GitLab's NotificationRecipient#notifiable? decides
// (app/models/notification_recipient.rb): the setting that applies is the project's, else the nearest
// group's that is not `global`, else the user's global one; then the level is asked with the way the
// user came to be a candidate. Pure functions: the data is loaded by recipients.ts.
import type { Level } from './vocabulary.js';

/** How a user became a candidate (GitLab's recipient types). */
export type RecipientType = 'participating' | 'mention' | 'watch' | 'custom' | 'subscription';

/** GitLab's NotificationReason, shown in X-GitLab-NotificationReason; null: no particular reason. */
export type NotificationReason = 'assigned' | 'review_requested' | 'mentioned' | 'subscribed' | null;

/**
 * The issue events Kiln produces, by their custom-notification names (NotificationSetting.email_events),
 * and `relabel_issue` (GitLab's relabeled_issue, which has no switch: it goes to the labels' subscribers only).
 */
export type IssueAction = 'new_issue' | 'close_issue' | 'reopen_issue' | 'reassign_issue' | 'issue_due' | 'new_note' | 'relabel_issue';

/**
 * The merge request events Kiln produces: the custom-notification names, and GitLab's actions that
 * have none (`relabel_merge_request`, only for label subscribers as for issues;
 * `change_reviewer_merge_request`, `approve`, `unapprove`, `draft_status_change`: a custom
 * level sends them to participants and mentions only, as NotificationRecipient#suitable_notification_level? does).
 */
export type MergeRequestAction = 'new_merge_request' | 'close_merge_request' | 'reopen_merge_request' | 'merge_merge_request'
  | 'reassign_merge_request' | 'change_reviewer_merge_request' | 'push_to_merge_request' | 'approve_merge_request' | 'unapprove_merge_request'
  | 'draft_status_change' | 'relabel_merge_request';

export type NotificationAction = IssueAction | MergeRequestAction;

export interface SettingLike {
  level: string;
  [event: string]: unknown;
}

/** GitLab's EXCLUDED_WATCHER_EVENTS and EXCLUDED_PARTICIPATING_EVENTS, for the events Kiln has. */
const EXCLUDED_FOR_WATCH: readonly string[] = ['push_to_merge_request', 'issue_due', 'success_pipeline'];
const EXCLUDED_FOR_PARTICIPATING: readonly string[] = ['success_pipeline'];

/** Project → groups (nearest first) → global: the first that is not `global`. */
export function effectiveSetting<T extends SettingLike>(project: T | undefined, groupsNearestFirst: Array<T | undefined>, global: T): T {
  for (const setting of [project, ...groupsNearestFirst]) if (setting && setting.level !== 'global') return setting;
  return global;
}

export function customEnabled(setting: SettingLike, action: NotificationAction): boolean {
  return Number(setting[action] ?? 0) === 1;
}

/** NotificationRecipient#suitable_notification_level? */
export function suitableLevel(setting: SettingLike, type: RecipientType, action: NotificationAction): boolean {
  const level = setting.level as Level;
  switch (level) {
    case 'custom':
      return customEnabled(setting, action) || type === 'participating' || type === 'mention';
    case 'watch':
      return !EXCLUDED_FOR_WATCH.includes(action);
    case 'participating':
      return !EXCLUDED_FOR_PARTICIPATING.includes(action);
    case 'mention':
      return type === 'mention';
    default:
      return false;
  }
}

export interface CandidateFacts {
  type: RecipientType;
  setting: SettingLike;
  /** The user acted (no mail about your own action: Kiln has no "notify me of my own activity"). */
  isActor: boolean;
  /** Active human with a deliverable address, who can read the project and this issue or merge request. */
  hasAccess: boolean;
  /** An explicit unsubscription from this issue. */
  unsubscribed: boolean;
}

/** NotificationRecipient#notifiable? */
export function notifiable(candidate: CandidateFacts, action: NotificationAction): boolean {
  if (!candidate.hasAccess || candidate.isActor) return false;
  // Even users with notifications disabled receive what they subscribed to.
  if (candidate.type === 'subscription') return !candidate.unsubscribed;
  if (!suitableLevel(candidate.setting, candidate.type, action)) return false;
  // An unsubscription silences everything but a mention.
  return candidate.type === 'mention' || !candidate.unsubscribed;
}

/** NotificationReason::REASON_PRIORITY: the reason shown when a user is a candidate several ways. */
const REASON_PRIORITY: NotificationReason[] = ['assigned', 'review_requested', 'mentioned', 'subscribed'];

export function reasonRank(reason: NotificationReason): number {
  const index = REASON_PRIORITY.indexOf(reason);
  return index === -1 ? REASON_PRIORITY.length + 1 : index;
}

/** The pipeline e-mail events (GitLab's NotificationService#pipeline_finished custom actions). */
export type PipelineAction = 'failed_pipeline' | 'fixed_pipeline' | 'success_pipeline';

/**
 * Whether the pipeline's user gets a pipeline e-mail under the setting that applies. GitLab asks
 * notifiable? as a watcher with the pipeline's custom action: watch and participating send failed
 * and fixed pipelines, not successful ones; custom sends what is switched on, where a failed or fixed
 * pipeline switch never set counts as on (NotificationSetting#event_enabled?); mention and disabled
 * send none.
 */
export function pipelineMailAllowed(setting: SettingLike, action: PipelineAction): boolean {
  switch (setting.level as Level) {
    case 'custom': {
      const flag = setting[action];
      return flag === null || flag === undefined ? action !== 'success_pipeline' : Number(flag) === 1;
    }
    case 'watch':
    case 'participating':
      return action !== 'success_pipeline';
    default:
      return false;
  }
}
