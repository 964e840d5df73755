// The channels a chat message goes to: the integration's channel for that kind of event, else its
// default channel; a comma-separated list posts once per distinct channel, at most GitLab's 10 per
// event (Integrations::BaseChatNotification::CHANNEL_LIMIT_PER_EVENT); none, the webhook's own default.
import type { ChatMessage } from './slack-messages.js';
import { CHANNEL_FIELDS, propertiesOf, type ChatIntegrationRow, type SlackProperties } from './slack-integration.js';

export const CHANNEL_LIMIT_PER_EVENT = 10;

/** The distinct channels an event's field names (or the default channel), all of them. */
function channelsFor(properties: SlackProperties, field: string): string[] {
  return [...new Set((properties.channels[field] || properties.channel || '').split(',').map((channel) => channel.trim()).filter(Boolean))];
}

export function chatChannels(integration: Pick<ChatIntegrationRow, 'properties'>, message: Pick<ChatMessage, 'channelField'>): Array<string | null> {
  // An integration saved before the limit may name more: the first ten are posted to.
  const channels = channelsFor(propertiesOf(integration), message.channelField).slice(0, CHANNEL_LIMIT_PER_EVENT);
  return channels.length > 0 ? channels : [null];
}

/** GitLab's validate_channel_limit: each event's field over the limit, with GitLab's message. */
export function channelLimitErrors(properties: SlackProperties): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  for (const field of CHANNEL_FIELDS) {
    if (channelsFor(properties, field).length > CHANNEL_LIMIT_PER_EVENT) errors[field] = [`cannot have more than ${CHANNEL_LIMIT_PER_EVENT} channels`];
  }
  return Object.keys(errors).length > 0 ? errors : null;
}
