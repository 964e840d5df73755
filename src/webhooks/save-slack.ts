// Set up, change or remove a project's Slack notifications. The webhook URL is judged like a hook's
// (local addresses only with the admin setting) and kept sealed: it is a credential.
import type { Deps } from '../platform/deps.js';
import { ApiError } from '../platform/http/api-error.js';
import { ValidationError } from '../platform/errors.js';
import { blockedHookUrl, outboundRules } from './outbound.js';
import { channelLimitErrors } from './chat-channels.js';
import { CHAT_EVENT_FLAGS, CHAT_STORED_FLAGS, CHANNEL_FIELDS, propertiesOf, type ChatEventFlag, type ChatIntegrationRow } from './slack-integration.js';

export interface SlackInput {
  webhook?: string;
  username?: string;
  channel?: string;
  active?: boolean;
  notify_only_broken_pipelines?: boolean;
  notify_only_default_branch?: boolean;
  branches_to_be_notified?: string;
  labels_to_be_notified?: string;
  labels_to_be_notified_behavior?: string;
  flags: Record<string, boolean>;
  channels: Record<string, string>;
}

export async function findSlack(deps: Deps, projectId: number): Promise<ChatIntegrationRow | undefined> {
  return deps.db.selectFrom('chat_integrations').selectAll().where('project_id', '=', projectId).where('kind', '=', 'slack').executeTakeFirst();
}

export async function saveSlack(deps: Deps, projectId: number, input: SlackInput): Promise<ChatIntegrationRow> {
  const existing = await findSlack(deps, projectId);
  if (input.webhook === undefined && !existing) throw new ApiError(400, { error: 'webhook is missing' });
  if (input.webhook !== undefined) {
    const reason = blockedHookUrl(input.webhook.trim(), await outboundRules(deps, 'web'));
    if (reason) throw new ApiError(400, { message: { webhook: [`is blocked: ${reason}`] } });
  }
  const properties = propertiesOf(existing);
  for (const key of ['username', 'channel', 'notify_only_broken_pipelines', 'notify_only_default_branch', 'branches_to_be_notified', 'labels_to_be_notified', 'labels_to_be_notified_behavior'] as const) {
    if (input[key] !== undefined) (properties as unknown as Record<string, unknown>)[key] = input[key];
  }
  for (const field of CHANNEL_FIELDS) if (input.channels[field] !== undefined) properties.channels[field] = input.channels[field];
  for (const flag of Object.keys(CHAT_STORED_FLAGS)) if (input.flags[flag] !== undefined) properties.stored_flags[flag] = input.flags[flag];
  const channelErrors = input.active === false ? null : channelLimitErrors(properties);
  if (channelErrors) throw new ValidationError(channelErrors);
  const columns = Object.fromEntries(
    (Object.keys(CHAT_EVENT_FLAGS) as ChatEventFlag[]).map((flag) => [flag, input.flags[flag] !== undefined ? (input.flags[flag] ? 1 : 0) : existing ? Number(existing[flag]) : CHAT_EVENT_FLAGS[flag] ? 1 : 0]),
  ) as Record<ChatEventFlag, number>;
  const now = deps.clock.now();
  const values = {
    ...columns,
    // Saving through the API activates it (GitLab: `active` defaults to true on update).
    active: input.active === false ? 0 : 1,
    properties: JSON.stringify(properties),
    updated_at: now,
    ...(input.webhook !== undefined ? { webhook: deps.box.seal(input.webhook.trim()) } : {}),
  };
  if (existing) {
    return deps.db.updateTable('chat_integrations').set(values).where('id', '=', existing.id).returningAll().executeTakeFirstOrThrow();
  }
  return deps.db
    .insertInto('chat_integrations')
    .values({ project_id: projectId, kind: 'slack', webhook: deps.box.seal(input.webhook!.trim()), created_at: now, ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** DELETE: the integration is removed (GitLab resets it to an inactive default). */
export async function deleteSlack(deps: Deps, projectId: number): Promise<void> {
  await deps.db.deleteFrom('chat_integrations').where('project_id', '=', projectId).where('kind', '=', 'slack').execute();
}
