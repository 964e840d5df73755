// Change a user's notification setting for a source (GitLab's REST API documentation), creating the row on first
// change. One upsert keyed by the unique (user, source), so concurrent first changes cannot duplicate it.
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { inTransaction } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
// The user's confirmed addresses, the primary one among them (GitLab: "must be an email you have verified").
import { confirmedEmailsOf } from '../accounts/api.js';
import { DEFAULT_LEVEL, type EmailEvent, type Level } from './vocabulary.js';
import { findNotificationSetting, type NotificationSettingRow, type NotificationSource } from './finder.js';

export interface UpdateNotificationSettingInput {
  source: NotificationSource;
  level?: Level;
  /** Global setting only: one of the user's verified addresses; '' returns to the primary address. */
  notificationEmail?: string;
  events?: Partial<Record<EmailEvent, boolean>>;
}

async function checkedEmail(deps: Deps, userId: number, email: string): Promise<string | null> {
  if (email.trim() === '') return null;
  const match = (await confirmedEmailsOf(deps, userId)).find((address) => address.toLowerCase() === email.trim().toLowerCase());
  if (!match) throw new ValidationError({ notification_email: ['must be an email you have verified'] });
  return match;
}

export async function updateNotificationSetting(deps: Deps, actor: Principal, input: UpdateNotificationSettingInput): Promise<NotificationSettingRow> {
  const userId = actor.user.id;
  const now = deps.clock.now();
  const changes: Record<string, unknown> = { updated_at: now };
  if (input.level !== undefined) changes.level = input.level;
  if (input.source.type === 'Global' && input.notificationEmail !== undefined) {
    changes.notification_email = await checkedEmail(deps, userId, input.notificationEmail);
  }
  for (const [name, value] of Object.entries(input.events ?? {})) {
    if (value !== undefined) changes[name] = value ? 1 : 0;
  }
  return inTransaction(deps.db, async (trx) => {
    await trx
      .insertInto('notification_settings')
      .values({
        user_id: userId,
        source_type: input.source.type,
        source_id: input.source.id,
        level: DEFAULT_LEVEL[input.source.type],
        notification_email: null,
        created_at: now,
        ...changes,
      } as never)
      .onConflict((conflict) => conflict.columns(['user_id', 'source_type', 'source_id']).doUpdateSet(changes as never))
      .execute();
    return findNotificationSetting(trx, userId, input.source);
  });
}
