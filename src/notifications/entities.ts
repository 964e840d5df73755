// Wire shapes (gitlab-rest.md §4.3): `level`, `notification_email` on the global setting only, and
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

export function globalNotificationSettingEntity(row: NotificationSettingRow, tier: Tier, primaryEmail: string) {
  return {
    level: row.level,
    notification_email: row.notification_email ?? primaryEmail,
    ...(row.level === 'custom' ? { events: eventsOf(row, tier) } : {}),
  };
}
