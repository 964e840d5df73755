// Raw statements of the webhook listeners: they run in the producer's transaction, which on the alert
// endpoint's path is a group-commit work with raw statements only.
import { q } from '../platform/db/statements.js';

export interface ListeningHook {
  id: number;
  type: 'ProjectHook' | 'GroupHook' | 'SystemHook';
  push_events: number;
  tag_push_events: number;
  issues_events: number;
  confidential_issues_events: number;
  note_events: number;
  confidential_note_events: number;
  deployment_events: number;
  push_events_branch_filter: string | null;
  branch_filter_strategy: string;
  recent_failures: number;
  backoff_count: number;
  disabled_until: number | null;
}

/**
 * The project's hooks, its ancestor groups' hooks (when `groups`), and system hooks (when `system`):
 * the caller filters on the flags. The ancestors come from a recursive walk up `parent_id`.
 */
export const hooksOfProject = (projectId: number, groups: boolean, system: boolean) => q`
  with recursive ancestors(id) as (
    select namespaces.id from projects join namespaces on namespaces.id = projects.namespace_id
      where projects.id = ${projectId} and namespaces.kind = 'group' and ${groups ? 1 : 0} = 1
    union all
    select namespaces.parent_id from namespaces join ancestors on namespaces.id = ancestors.id where namespaces.parent_id is not null
  )
  select id, type, push_events, tag_push_events, issues_events, confidential_issues_events, note_events, confidential_note_events,
    deployment_events, push_events_branch_filter, branch_filter_strategy, recent_failures, backoff_count, disabled_until
  from web_hooks
  where (type = 'ProjectHook' and project_id = ${projectId})
     or (type = 'GroupHook' and group_id in (select id from ancestors))
     or (type = 'SystemHook' and ${system ? 1 : 0} = 1)
  order by id`;

export const issueConfidential = (issueId: number) => q`select confidential from issues where id = ${issueId}`;

export interface ListeningIntegration {
  id: number;
  alert_events: number;
  issues_events: number;
  confidential_issues_events: number;
  note_events: number;
  confidential_note_events: number;
  push_events: number;
  tag_push_events: number;
  deployment_events: number;
}

export const activeChatIntegrations = (projectId: number) => q`
  select id, alert_events, issues_events, confidential_issues_events, note_events, confidential_note_events, push_events, tag_push_events, deployment_events
  from chat_integrations where project_id = ${projectId} and active = 1`;

/** Every system hook with its failure state (system events go to all of them). */
export const systemHooks = () => q`select id, recent_failures, backoff_count, disabled_until from web_hooks where type = 'SystemHook' order by id`;
