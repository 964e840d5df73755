// The channels a chat message goes to: the integration's channel for that kind of event, else its
// default channel; a comma-separated list posts once per channel; none, the webhook's own default.
import type { ChatMessage } from './slack-messages.js';
import { propertiesOf, type ChatIntegrationRow } from './slack-integration.js';

export function chatChannels(integration: Pick<ChatIntegrationRow, 'properties'>, message: Pick<ChatMessage, 'channelField'>): Array<string | null> {
  const properties = propertiesOf(integration);
  const channels = (properties.channels[message.channelField] || properties.channel || '').split(',').map((channel) => channel.trim()).filter(Boolean);
  return channels.length > 0 ? channels : [null];
}
