// Hooks as GitLab's API presents them (entities/hook.rb, project_hook.rb, group_hook.rb): every event
// flag, `alert_status` and `disabled_until`; the token is never answered.
import type { Selectable } from 'kysely';
import type { WebHooksTable } from '../platform/db/tables/webhooks.js';
import { alertStatus, defaultFlags, flagNames } from './model.js';

export type HookRow = Selectable<WebHooksTable>;

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function hookFlags(hook: HookRow): Record<string, boolean> {
  const stored = JSON.parse(hook.flags) as Record<string, boolean>;
  const flags = defaultFlags(hook.type);
  for (const name of flagNames(hook.type)) if (name in stored) flags[name] = stored[name];
  return flags;
}

export function hookEntity(hook: HookRow, now: number) {
  const flags = hookFlags(hook);
  const base = {
    id: Number(hook.id),
    url: hook.url,
    name: hook.name ?? '',
    description: hook.description ?? '',
    created_at: iso(hook.created_at),
    push_events: flags.push_events,
    tag_push_events: flags.tag_push_events,
    merge_requests_events: flags.merge_requests_events,
    repository_update_events: flags.repository_update_events,
    enable_ssl_verification: hook.enable_ssl_verification === 1,
    alert_status: alertStatus(hook, now),
    disabled_until: hook.disabled_until !== null && Number(hook.disabled_until) > now ? iso(hook.disabled_until) : null,
    url_variables: [] as unknown[],
  };
  if (hook.type === 'SystemHook') return base;
  const scoped = {
    ...base,
    push_events_branch_filter: hook.push_events_branch_filter ?? '',
    branch_filter_strategy: hook.branch_filter_strategy,
    custom_webhook_template: null,
    custom_headers: [] as unknown[],
    ...(hook.type === 'ProjectHook' ? { project_id: Number(hook.project_id) } : { group_id: Number(hook.group_id) }),
  };
  const rest = Object.fromEntries(flagNames(hook.type).filter((name) => !(name in scoped)).map((name) => [name, flags[name]]));
  return { ...scoped, ...rest };
}

/** One recent delivery (GitLab's hook log entity in the API: `GET …/hooks/:id/events`). */
export function hookLogEntity(log: { id: number; url: string; trigger: string; request_headers: string; request_data: string; response_headers: string; response_body: string; response_status: string; execution_duration: number; internal_error_message: string | null; created_at: number }) {
  return {
    id: Number(log.id),
    url: log.url,
    trigger: log.trigger,
    request_headers: JSON.parse(log.request_headers),
    request_data: JSON.parse(log.request_data),
    response_headers: JSON.parse(log.response_headers),
    response_body: log.response_body,
    response_status: log.response_status,
    execution_duration: Number(log.execution_duration),
    internal_error_message: log.internal_error_message,
    created_at: iso(log.created_at),
  };
}
