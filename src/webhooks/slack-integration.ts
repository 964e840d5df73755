// The Slack notifications integration as GitLab's integrations API names it (lib/api/integrations.rb,
// Integrations::Slack): the webhook (a secret, never answered), the default username and channel, the
// event flags and a channel per event. Mattermost accepts the same messages.
import type { Selectable } from 'kysely';
import type { ChatIntegrationsTable } from '../platform/db/tables/webhooks.js';

export type ChatIntegrationRow = Selectable<ChatIntegrationsTable>;

/** Event flags that are columns (the listeners filter on them), with GitLab's defaults for a new integration. */
export const CHAT_EVENT_FLAGS = {
  push_events: true,
  issues_events: true,
  confidential_issues_events: true,
  note_events: true,
  confidential_note_events: true,
  tag_push_events: true,
  deployment_events: false,
  alert_events: true,
} as const;
export type ChatEventFlag = keyof typeof CHAT_EVENT_FLAGS;

/**
 * Flags that are no column, kept in the properties: merge_requests_events (read there by the listener,
 * which has the properties anyway) and those GitLab has that Kiln stores and answers but has no events for.
 */
export const CHAT_STORED_FLAGS = { merge_requests_events: true, pipeline_events: true, wiki_page_events: true, incident_events: false, job_events: false, commit_events: false, vulnerability_events: false } as const;

/** Per-event channels (blank: the default channel). */
export const CHANNEL_FIELDS = [
  'push_channel', 'issue_channel', 'confidential_issue_channel', 'merge_request_channel', 'note_channel', 'confidential_note_channel',
  'tag_push_channel', 'pipeline_channel', 'wiki_page_channel', 'deployment_channel', 'incident_channel', 'alert_channel', 'vulnerability_channel',
] as const;

export interface SlackProperties {
  username: string | null;
  channel: string | null;
  notify_only_broken_pipelines: boolean;
  notify_only_default_branch: boolean;
  branches_to_be_notified: string;
  labels_to_be_notified: string;
  labels_to_be_notified_behavior: string;
  stored_flags: Record<string, boolean>;
  channels: Record<string, string>;
}

export function defaultProperties(): SlackProperties {
  return {
    username: null,
    channel: null,
    notify_only_broken_pipelines: true,
    notify_only_default_branch: false,
    branches_to_be_notified: 'default',
    labels_to_be_notified: '',
    labels_to_be_notified_behavior: 'match_any',
    stored_flags: { ...CHAT_STORED_FLAGS },
    channels: {},
  };
}

export function propertiesOf(row: Pick<ChatIntegrationRow, 'properties'> | undefined): SlackProperties {
  return row ? { ...defaultProperties(), ...(JSON.parse(row.properties) as Partial<SlackProperties>) } : defaultProperties();
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

/** GitLab's Integration entity; an integration never saved answers inactive with its defaults. */
export function slackEntity(row: ChatIntegrationRow | undefined) {
  const properties = propertiesOf(row);
  const flags = Object.fromEntries(Object.entries(CHAT_EVENT_FLAGS).map(([flag, fallback]) => [flag, row ? Number(row[flag as ChatEventFlag]) === 1 : fallback]));
  return {
    id: row ? Number(row.id) : null,
    title: 'Slack notifications',
    slug: 'slack',
    created_at: iso(row?.created_at),
    updated_at: iso(row?.updated_at),
    active: row ? Number(row.active) === 1 : false,
    commit_events: properties.stored_flags.commit_events ?? false,
    push_events: flags.push_events,
    issues_events: flags.issues_events,
    incident_events: properties.stored_flags.incident_events ?? false,
    alert_events: flags.alert_events,
    confidential_issues_events: flags.confidential_issues_events,
    merge_requests_events: properties.stored_flags.merge_requests_events ?? true,
    tag_push_events: flags.tag_push_events,
    deployment_events: flags.deployment_events,
    note_events: flags.note_events,
    confidential_note_events: flags.confidential_note_events,
    pipeline_events: properties.stored_flags.pipeline_events ?? true,
    wiki_page_events: properties.stored_flags.wiki_page_events ?? true,
    job_events: properties.stored_flags.job_events ?? false,
    comment_on_event_enabled: true,
    inherited: false,
    vulnerability_events: properties.stored_flags.vulnerability_events ?? false,
    properties: {
      username: properties.username ?? '',
      channel: properties.channel ?? '',
      notify_only_broken_pipelines: properties.notify_only_broken_pipelines,
      notify_only_default_branch: properties.notify_only_default_branch,
      branches_to_be_notified: properties.branches_to_be_notified,
      labels_to_be_notified: properties.labels_to_be_notified,
      labels_to_be_notified_behavior: properties.labels_to_be_notified_behavior,
      ...Object.fromEntries(CHANNEL_FIELDS.map((field) => [field, properties.channels[field] ?? ''])),
    },
  };
}
