// PUT /user/status (GitLab's Users::SetStatusService): a status with an emoji (`speech_balloon` when
// none is given), a message or an availability is kept; with none of the three the status is cleared.
// clear_status_after sets when it clears itself (one of GitLab's quick options); unsent, the time
// already set stays.
import type { Deps } from '../platform/deps.js';
import { ValidationError } from '../platform/errors.js';
import { isEmojiName } from '../platform/emoji-names.js';
import { userStatusOf, type UserStatusRow } from './user-status.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** UserStatus::CLEAR_STATUS_QUICK_OPTIONS. */
export const CLEAR_STATUS_AFTER: Readonly<Record<string, number>> = {
  '30_minutes': 30 * MINUTE,
  '3_hours': 3 * HOUR,
  '8_hours': 8 * HOUR,
  '1_day': DAY,
  '3_days': 3 * DAY,
  '7_days': 7 * DAY,
  '30_days': 30 * DAY,
};
export const AVAILABILITIES = ['not_set', 'busy'] as const;
const MESSAGE_MAX = 100;

export interface UserStatusInput {
  emoji?: string | null;
  message?: string | null;
  availability?: (typeof AVAILABILITIES)[number] | null;
  /** A key of CLEAR_STATUS_AFTER, or null/'' for never; undefined keeps the time set before. */
  clearStatusAfter?: string | null;
}

export async function setUserStatus(deps: Deps, userId: number, input: UserStatusInput): Promise<UserStatusRow | null> {
  const emoji = input.emoji?.trim() || null;
  const message = input.message?.trim() || null;
  const availability = input.availability || null;
  if (!emoji && !message && !availability) {
    await deps.db.deleteFrom('user_statuses').where('user_id', '=', userId).execute();
    return null;
  }
  const errors: Record<string, string[]> = {};
  if (emoji && !isEmojiName(emoji)) errors.emoji = ['does not exist'];
  if (message && [...message].length > MESSAGE_MAX) errors.message = [`is too long (maximum is ${MESSAGE_MAX} characters)`];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const now = deps.clock.now();
  const previous = await userStatusOf(deps, userId);
  const after = input.clearStatusAfter;
  const clearStatusAt = after === undefined ? (previous?.clear_status_at ?? null) : after ? now + CLEAR_STATUS_AFTER[after]! : null;
  const row = { emoji: emoji ?? 'speech_balloon', message, availability: availability ?? previous?.availability ?? 'not_set', clear_status_at: clearStatusAt, updated_at: now };
  await deps.db
    .insertInto('user_statuses')
    .values({ user_id: userId, ...row })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(row))
    .execute();
  return { user_id: userId, ...row };
}
