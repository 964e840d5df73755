// Housekeeping: prunes finished jobs and expired rate-limit windows so both tables stay small (every
// query on them must stay index-served, docs/architecture.md "Data"), and credentials that can no longer
// be used: expired browser sessions, expired OAuth authorization codes, revoked OAuth tokens and
// expired ones without a refresh token. Dead jobs are kept: they are the visible record of work that
// needs an operator. Personal access tokens are kept too: GitLab lists revoked and expired ones as
// inactive. The job re-schedules itself hourly.
import type { Deps } from '../deps.js';
import type { Feature } from '../feature.js';
import { inTransaction, type Executor } from '../db/database.js';
import { enqueue } from './queue.js';
import { tokenExpiry } from './jobs-queries.js';
import { DAY_MS } from '../clock.js';

export const HOUSEKEEPING_JOB = 'platform.housekeeping';
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;
/**
 * Expired rate-limit rows go in statements of this many (each one short, through the expires_at
 * index), at most RATE_LIMIT_PRUNE_BATCHES a run: a flood of one-off addresses is cleared over the
 * following runs rather than by one long delete holding the table.
 */
export const RATE_LIMIT_PRUNE_BATCH = 1000;
const RATE_LIMIT_PRUNE_BATCHES = 50;
/**
 * Codes live 10 minutes; a used or expired one is kept a day so that its reuse still revokes what it
 * issued (RFC 9700 §4.2.4) well past its life, then it would only be an unknown code (invalid_grant).
 */
const GRANT_KEEP_MS = DAY_MS;
/**
 * Revoked tokens (rotated refresh tokens among them) are kept 30 days so that presenting a rotated
 * refresh token still revokes its family (RFC 9700 §4.14.2) for as long as a client plausibly holds it.
 */
const TOKEN_KEEP_MS = 30 * DAY_MS;

export interface HousekeepingResult {
  jobsPruned: number;
  rateLimitsPruned: number;
  sessionsPruned: number;
  grantsPruned: number;
  tokensPruned: number;
}

export async function pruneHousekeeping(deps: Deps): Promise<HousekeepingResult> {
  const now = deps.clock.now();
  const jobs = await deps.db
    .deleteFrom('jobs')
    .where('state', '=', 'done')
    .where('updated_at', '<', now - deps.config.jobRetentionDays * DAY_MS)
    .executeTakeFirst();
  const rateLimitsPruned = await pruneRateLimits(deps.db, now);
  const credentials = await pruneCredentials(deps, now);
  return { jobsPruned: Number(jobs.numDeletedRows), rateLimitsPruned, ...credentials };
}

/** Rate-limit rows whose window (or ban) has ended, bounded per run; how many went. */
export async function pruneRateLimits(db: Executor, now: number, bounds = { batch: RATE_LIMIT_PRUNE_BATCH, batches: RATE_LIMIT_PRUNE_BATCHES }): Promise<number> {
  let pruned = 0;
  for (let round = 0; round < bounds.batches; round += 1) {
    const expired = db.selectFrom('rate_limits').select('key').where('expires_at', '<=', now).limit(bounds.batch);
    const deleted = Number((await db.deleteFrom('rate_limits').where('key', 'in', expired).executeTakeFirst()).numDeletedRows);
    pruned += deleted;
    if (deleted < bounds.batch) break;
  }
  return pruned;
}

async function pruneCredentials(deps: Deps, now: number): Promise<Pick<HousekeepingResult, 'sessionsPruned' | 'grantsPruned' | 'tokensPruned'>> {
  const sessions = await deps.db.deleteFrom('web_sessions').where('expires_at', '<=', now).executeTakeFirst();
  const grants = await deps.db.deleteFrom('oauth_access_grants').where('expires_at', '<', now - GRANT_KEEP_MS).executeTakeFirst();
  const cutoff = now - TOKEN_KEEP_MS;
  // An access token with a refresh token stays while the refresh token is unrevoked, however old.
  const tokens = await deps.db
    .deleteFrom('oauth_access_tokens')
    .where((eb) =>
      eb.or([
        eb('revoked_at', '<', cutoff),
        eb.and([eb('refresh_digest', 'is', null), eb('expires_in', 'is not', null), eb(tokenExpiry(), '<', cutoff)]),
      ]),
    )
    .executeTakeFirst();
  return { sessionsPruned: Number(sessions.numDeletedRows), grantsPruned: Number(grants.numDeletedRows), tokensPruned: Number(tokens.numDeletedRows) };
}

/** Queue the next run unless one is already queued (several nodes may start at once; an extra run is harmless). */
export async function scheduleHousekeeping(executor: Executor, deps: Deps, runAt: number): Promise<void> {
  await inTransaction(executor, async (trx) => {
    const pending = await trx.selectFrom('jobs').select('id').where('kind', '=', HOUSEKEEPING_JOB).where('state', '=', 'queued').executeTakeFirst();
    if (!pending) await enqueue(trx, deps.clock, HOUSEKEEPING_JOB, {}, { runAt, maxAttempts: 3 });
  });
}

export const housekeepingFeature: Feature = {
  name: 'platform',
  jobs: {
    async [HOUSEKEEPING_JOB](deps) {
      const result = await pruneHousekeeping(deps);
      deps.log.info(result, 'housekeeping done');
      await scheduleHousekeeping(deps.db, deps, deps.clock.now() + HOUSEKEEPING_INTERVAL_MS);
    },
  },
  async onStart(deps) {
    await scheduleHousekeeping(deps.db, deps, deps.clock.now() + 60_000);
  },
};
