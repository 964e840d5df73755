// GitLab's ban for failed git Basic authentication (config/initializers/rack_attack_git_basic_auth.rb,
// lib/gitlab/auth/ip_rate_limiter.rb, gitlab.yml's rack_attack.git_basic_auth: maxretry 10, findtime
// 60 s, bantime 1 h): the tenth failure from one address within a minute bans the address from git
// HTTP for an hour, answered 403 "Forbidden" as Rack::Attack's blocklist does; a success clears the
// count ("repeated login failures are normal behaviour for some git clients"). The count and the ban
// are two rows of rate_limits, so every node sees them and housekeeping prunes them.
import type { Deps } from '../../platform/deps.js';
import { hit } from '../../platform/rate-limit.js';

export const GIT_AUTH_MAX_FAILURES = 10;
export const GIT_AUTH_FIND_MS = 60_000;
export const GIT_AUTH_BAN_MS = 60 * 60_000;

const countKey = (ip: string) => `git_basic_auth:count:${ip}`;
const banKey = (ip: string) => `git_basic_auth:ban:${ip}`;

export interface GitAuthThrottle {
  banned: boolean;
  /** Failures are being counted for this address (a success clears them). */
  counting: boolean;
}

/** One read per git request: the ban (its window starts when it was imposed) and the failure count. */
export async function gitAuthThrottle(deps: Deps, ip: string): Promise<GitAuthThrottle> {
  const rows = await deps.db.selectFrom('rate_limits').select(['key', 'window_start']).where('key', 'in', [banKey(ip), countKey(ip)]).execute();
  const ban = rows.find((row) => row.key === banKey(ip));
  return {
    banned: ban !== undefined && deps.clock.now() < Number(ban.window_start) + GIT_AUTH_BAN_MS,
    counting: rows.some((row) => row.key === countKey(ip)),
  };
}

export async function recordGitAuthFailure(deps: Deps, ip: string): Promise<void> {
  // Allow2Ban bans when the count reaches maxretry: the tenth failure is the first over a limit of nine.
  const { allowed } = await hit(deps.db, deps.clock, countKey(ip), { limit: GIT_AUTH_MAX_FAILURES - 1, windowMs: GIT_AUTH_FIND_MS });
  if (allowed) return;
  const now = deps.clock.now();
  await deps.db
    .insertInto('rate_limits')
    .values({ key: banKey(ip), window_start: now, count: 1, expires_at: now + GIT_AUTH_BAN_MS })
    .onConflict((conflict) => conflict.column('key').doUpdateSet((eb) => ({ window_start: eb.ref('excluded.window_start'), count: 1, expires_at: eb.ref('excluded.expires_at') })))
    .execute();
  await deps.db.deleteFrom('rate_limits').where('key', '=', countKey(ip)).execute();
}

export async function clearGitAuthFailures(deps: Deps, ip: string): Promise<void> {
  await deps.db.deleteFrom('rate_limits').where('key', '=', countKey(ip)).execute();
}
