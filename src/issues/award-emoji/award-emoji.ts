// Award emoji (GitLab's AwardEmoji, AwardEmojis::AddService and DestroyService): a user awards a named
// emoji to an issue, a merge request or a comment once — the unique index on (awardable, name, user)
// holds it when two requests race — and only they (or an administrator) take it back. Thumbs up and
// down are the votes the issue and merge request entities count.
import type { Selectable } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { AwardEmojiTable, AwardableType } from '../../platform/db/tables/review.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { NotFoundError, RecordNotFoundError, StatusError } from '../../platform/errors.js';
import { isEmojiName } from '../../platform/emoji-names.js';

export type AwardRow = Selectable<AwardEmojiTable>;

export interface Awardable {
  type: AwardableType;
  id: number;
}

/** GitLab's AwardEmoji::UPVOTE_NAME and DOWNVOTE_NAME. */
export const UPVOTE = 'thumbsup';
export const DOWNVOTE = 'thumbsdown';

export function awardsQuery(db: Executor, awardable: Awardable) {
  return db.selectFrom('award_emoji').selectAll().where('awardable_type', '=', awardable.type).where('awardable_id', '=', awardable.id).orderBy('id');
}

export async function findAward(db: Executor, awardable: Awardable, awardId: number): Promise<AwardRow> {
  const award = await awardsQuery(db, awardable).where('id', '=', awardId).executeTakeFirst();
  if (!award) throw new RecordNotFoundError();
  return award;
}

/** AddService: the API answers its refusals as `404 Award Emoji <errors> Not Found`, as GitLab does. */
export async function addAward(deps: Deps, userId: number, awardable: Awardable, name: string): Promise<AwardRow> {
  if (!isEmojiName(name)) throw new NotFoundError('Award Emoji Name is not a valid emoji name');
  const now = deps.clock.now();
  try {
    return await deps.db
      .insertInto('award_emoji')
      .values({ name, user_id: userId, awardable_type: awardable.type, awardable_id: awardable.id, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw new NotFoundError('Award Emoji Name has already been taken');
    throw error;
  }
}

/** Only the user who awarded it, or an administrator (GitLab answers anyone else 401). */
export async function removeAward(deps: Deps, actor: AuthUser, award: AwardRow): Promise<void> {
  if (Number(award.user_id) !== actor.id && !actor.admin) throw new StatusError(401, '401 Unauthorized');
  await deps.db.deleteFrom('award_emoji').where('id', '=', Number(award.id)).execute();
}

/** `upvotes` and `downvotes` of each of these issues or merge requests, in one query. */
export async function voteCounts(db: Executor, type: 'Issue' | 'MergeRequest', ids: number[]): Promise<Map<number, { upvotes: number; downvotes: number }>> {
  const rows = ids.length === 0
    ? []
    : await db.selectFrom('award_emoji').select(['awardable_id', 'name', db.fn.countAll<number>().as('n')])
      .where('awardable_type', '=', type).where('awardable_id', 'in', ids).where('name', 'in', [UPVOTE, DOWNVOTE])
      .groupBy(['awardable_id', 'name']).execute();
  const counts = new Map<number, { upvotes: number; downvotes: number }>();
  for (const row of rows) {
    const entry = counts.get(Number(row.awardable_id)) ?? { upvotes: 0, downvotes: 0 };
    if (row.name === UPVOTE) entry.upvotes = Number(row.n);
    else entry.downvotes = Number(row.n);
    counts.set(Number(row.awardable_id), entry);
  }
  return counts;
}
