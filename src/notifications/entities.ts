// Wire shapes (GitLab's REST API documentation): `level`, `notification_email` on the global setting only, and
// `events` (every e-mail event of the source with its stored true/false/null) only when level is custom.
import type { Tier } from '../config.js';
import { emailEventsFor } from './vocabulary.js';
import type { NotificationSettingRow } from './finder.js';

function bool(value: number | null | undefined): boolean | null {
  return value === null || value === undefined ? null : Number(value) === 1;
}

export function eventsOf(row: NotificationSettingRow, tier: Tier): Record<string, boolean | null> {
  return Object.fromEntries(emailEventsFor(row.source_type, tier).map((name) => [name, bool(row[name])]));
}

export function notificationSettingEntity(row: NotificationSettingRow, tier: Tier) {
  return {
    level: row.level,
    ...(row.level === 'custom' ? { events: eventsOf(row, tier) } : {}),
  };
}

/**
 * `notification_email` falls back to the primary address when none is chosen, and also when the chosen
 * one is no longer among the user's verified addresses (the primary address changed since).
 */
/** `confirmedEmails`: the user's confirmed addresses; a chosen one no longer among them falls back to the primary. */
export function globalNotificationSettingEntity(row: NotificationSettingRow, tier: Tier, primaryEmail: string, confirmedEmails: string[] = [primaryEmail]) {
  const chosen = row.notification_email;
  const stillConfirmed = chosen !== null && confirmedEmails.some((email) => email.toLowerCase() === chosen.toLowerCase());
  return {
    level: row.level,
    notification_email: stillConfirmed ? chosen : primaryEmail,
    ...(row.level === 'custom' ? { events: eventsOf(row, tier) } : {}),
  };
}
