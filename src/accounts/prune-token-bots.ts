// The bots of project and group access tokens whose tokens have all been unusable for 30 days are
// deleted (GitLab's ResourceAccessTokens::InactiveTokensDeletionCronWorker, with
// inactive_resource_access_tokens_delete_after_days at its default): each of their tokens was revoked
// more than 30 days ago or expired on a day more than 30 days past, or they have no token. Until then
// a revoked or expired token stays listed as inactive, its bot a member (revoke-resource-access-token.ts).
// A token that never expires and is not revoked keeps its bot however old it is. Each bot found is
// blocked and queued for deletion as a deleted project's bots are (scheduleBotDeletion): what it did
// passes to the ghost user. A daily job.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { DAY_MS } from '../platform/clock.js';
import { today } from './access.js';
import { scheduleBotDeletion } from './schedule-user-deletion.js';

export const PRUNE_TOKEN_BOTS_JOB = 'accounts.prune_token_bots';
/** GitLab's INACTIVE_RESOURCE_ACCESS_TOKENS_DELETE_AFTER_DAYS. */
export const INACTIVE_TOKEN_BOT_DAYS = 30;
const BATCH = 200;

/** Queues the deletion of every bot whose tokens all became unusable before the cut-off; how many. */
export async function pruneTokenBots(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const cutoff = now - INACTIVE_TOKEN_BOT_DAYS * DAY_MS;
  // A token expires at the end of its expires_at day: one that expired before the cut-off has a day before the cut-off's.
  const cutoffDay = today(cutoff);
  let queued = 0;
  let after = 0;
  for (;;) {
    const bots = await deps.db
      .selectFrom('users as u')
      .select('u.id')
      .where('u.user_type', '=', 'project_bot')
      .where('u.state', '=', 'active')
      .where('u.id', '>', after)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('personal_access_tokens as t')
              .select('t.id')
              .whereRef('t.user_id', '=', 'u.id')
              .where((eb) =>
                eb.not(
                  eb.or([
                    eb.and([eb('t.revoked', '=', 1), eb(eb.fn.coalesce('t.revoked_at', eb.lit(0)), '<', cutoff)]),
                    eb.and([eb('t.expires_at', 'is not', null), eb('t.expires_at', '<', cutoffDay)]),
                  ]),
                ),
              ),
          ),
        ),
      )
      .orderBy('u.id')
      .limit(BATCH)
      .execute();
    for (const bot of bots) {
      if (await inTransaction(deps.db, (trx) => scheduleBotDeletion(deps, trx, Number(bot.id), null))) queued += 1;
    }
    if (bots.length < BATCH) break;
    after = Number(bots[bots.length - 1].id);
  }
  if (queued > 0) deps.pokeWorker();
  return queued;
}
