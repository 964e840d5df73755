// Notification levels and e-mail events (specification, Notification settings; GitLab's REST API documentation).
import type { Tier } from '../config.js';
import type { NotificationSourceType } from '../platform/db/tables/notifications.js';

export const LEVELS = ['disabled', 'participating', 'watch', 'global', 'mention', 'custom'] as const;
export type Level = (typeof LEVELS)[number];

export function isLevel(value: string): value is Level {
  return (LEVELS as readonly string[]).includes(value);
}

/** Every event GitLab's CE model knows, in its order; `new_epic` (EE) is added per source and tier. */
export const EMAIL_EVENTS = [
  'new_note', 'new_issue', 'reopen_issue', 'close_issue', 'reassign_issue', 'issue_due', 'new_merge_request',
  'push_to_merge_request', 'reopen_merge_request', 'close_merge_request', 'reassign_merge_request',
  'merge_merge_request', 'failed_pipeline', 'fixed_pipeline', 'success_pipeline', 'moved_project',
  'merge_when_pipeline_succeeds',
] as const;
export type EmailEvent = (typeof EMAIL_EVENTS)[number] | 'new_epic';

/** `new_epic` exists for the global and group settings on the top tier only (specification; docs/decisions.md tiers). */
export function emailEventsFor(source: NotificationSourceType, tier: Tier): EmailEvent[] {
  const withEpic = tier === 'ultimate' && source !== 'Project';
  return withEpic ? [...EMAIL_EVENTS, 'new_epic'] : [...EMAIL_EVENTS];
}

export const DEFAULT_LEVEL: Record<NotificationSourceType, Level> = { Global: 'participating', Namespace: 'global', Project: 'global' };
