import type { Generated } from 'kysely';

export type WebHookType = 'ProjectHook' | 'GroupHook' | 'SystemHook';

/** A webhook (GitLab's web_hooks): booleans are INTEGER 0/1. */
export interface WebHooksTable {
  id: Generated<number>;
  type: WebHookType;
  project_id: number | null;
  group_id: number | null;
  url: string;
  name: string | null;
  description: string | null;
  token: string | null;
  flags: string;
  push_events: number;
  tag_push_events: number;
  issues_events: number;
  confidential_issues_events: number;
  note_events: number;
  confidential_note_events: number;
  deployment_events: number;
  merge_requests_events: Generated<number>;
  releases_events: Generated<number>;
  pipeline_events: Generated<number>;
  job_events: Generated<number>;
  wiki_page_events: Generated<number>;
  alert_events: Generated<number>;
  repository_update_events: Generated<number>;
  push_events_branch_filter: string | null;
  branch_filter_strategy: Generated<string>;
  enable_ssl_verification: Generated<number>;
  recent_failures: Generated<number>;
  backoff_count: Generated<number>;
  disabled_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebHookLogsTable {
  id: Generated<number>;
  web_hook_id: number;
  trigger: string;
  url: string;
  request_headers: string;
  request_data: string;
  response_headers: string;
  response_body: string;
  response_status: string;
  execution_duration: number;
  internal_error_message: string | null;
  idempotency_key: string;
  created_at: number;
}

export interface ChatIntegrationsTable {
  id: Generated<number>;
  project_id: number;
  kind: 'slack' | 'mattermost';
  active: number;
  webhook: string;
  properties: string;
  alert_events: number;
  issues_events: number;
  confidential_issues_events: number;
  note_events: number;
  confidential_note_events: number;
  push_events: number;
  tag_push_events: number;
  deployment_events: number;
  created_at: number;
  updated_at: number;
}

export interface WebhooksTables {
  web_hooks: WebHooksTable;
  web_hook_logs: WebHookLogsTable;
  chat_integrations: ChatIntegrationsTable;
}
