// The chat job: post the event's Slack message to each channel the integration named for that event
// (the per-event channel, else the default; a comma-separated list posts once per channel). The
// message and the channels were fixed in the event's transaction (listeners.ts); a job queued before
// they were builds them when it runs.
import type { Deps } from '../platform/deps.js';
import { BlockedRequestError, outboundRules, postPinned } from './outbound.js';
import { chatMessage } from './slack-messages.js';
import { propertiesOf } from './slack-integration.js';
import { chatChannels } from './chat-channels.js';
import type { ChatDeliveryPayload } from './listeners.js';

export async function deliverChat(deps: Deps, payload: ChatDeliveryPayload): Promise<void> {
  const integration = await deps.db.selectFrom('chat_integrations').selectAll().where('id', '=', payload.integrationId).executeTakeFirst();
  if (!integration || Number(integration.active) !== 1) return;
  const message = payload.message !== undefined ? payload.message : await chatMessage(deps, payload.event);
  if (!message) return;
  const properties = propertiesOf(integration);
  const channels = payload.channels ?? chatChannels(integration, message);
  const rules = await outboundRules(deps, 'web');
  for (const channel of channels) {
    const body = JSON.stringify({
      text: message.text,
      attachments: message.attachments,
      ...(channel ? { channel } : {}),
      ...(properties.username ? { username: properties.username } : {}),
    });
    let response;
    try {
      response = await postPinned(deps, { url: deps.box.open(integration.webhook), headers: { 'Content-Type': 'application/json' }, body, verifyTls: true, rules });
    } catch (error) {
      // A refused address stays refused: retrying would only repeat the refusal.
      if (error instanceof BlockedRequestError) {
        deps.log.warn({ integration: integration.id, reason: error.message }, 'chat webhook blocked');
        return;
      }
      throw error;
    }
    // A refused post is retried by the queue (a few attempts): chat services answer 5xx when busy.
    if (response.status >= 500) throw new Error(`chat webhook answered ${response.status}`);
  }
}
