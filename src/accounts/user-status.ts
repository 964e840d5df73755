// A user's status (GitLab's UserStatus and its API entity): emoji, message, availability and when it
// clears itself. A status whose clear_status_at has passed is read as none (GitLab clears them by a
// cron job; reading them as gone needs no job).
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import { isoTime } from '../platform/clock.js';
import { escapeHtml } from '../platform/web/html.js';
import { emojiCharacter } from '../platform/emoji-names.js';

export interface UserStatusRow {
  user_id: number;
  emoji: string;
  message: string | null;
  availability: 'not_set' | 'busy';
  clear_status_at: number | null;
  updated_at: number;
}

export async function userStatusOf(deps: Deps, userId: number, db: Executor = deps.db): Promise<UserStatusRow | null> {
  const row = await db.selectFrom('user_statuses').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row || (row.clear_status_at !== null && Number(row.clear_status_at) <= deps.clock.now())) return null;
  return row;
}

/** GitLab's message_html: the message escaped, its `:name:` shortcodes shown as their emoji. */
function messageHtml(message: string | null): string {
  if (!message) return '';
  return escapeHtml(message).replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => {
    const character = emojiCharacter(name);
    return character ? `<gl-emoji title="${name}" data-name="${name}">${character}</gl-emoji>` : whole;
  });
}

/** GitLab's Entities::UserStatus; a user without a status has every field empty, as GitLab answers. */
export function userStatusEntity(status: UserStatusRow | null) {
  return {
    emoji: status?.emoji ?? null,
    availability: status?.availability ?? null,
    message: status?.message ?? null,
    message_html: messageHtml(status?.message ?? null),
    clear_status_at: isoTime(status?.clear_status_at ?? null),
  };
}
