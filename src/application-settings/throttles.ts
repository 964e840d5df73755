// GitLab's user and IP rate limits (Rack::Attack's throttles, doc/administration/settings/
// user_and_ip_rate_limits.md) from the stored settings: API requests (/api/…) and web requests
// (the pages), each counted per user when authenticated and per client address otherwise, in
// fixed windows shared by every node (platform/rate-limit.ts). The route kit and the page kit ask
// after they know the caller (deps.auth.throttle). Off by default; while all four are off a request
// costs one cached read of the settings.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { hit, type Throttled } from '../platform/rate-limit.js';
import { currentSettings } from './read-settings.js';
import type { ApplicationSettings, ThrottleName } from './definitions.js';

function limitOf(settings: ApplicationSettings, name: ThrottleName): { limit: number; periodSeconds: number } | null {
  if (!settings[`throttle_${name}_enabled`]) return null;
  return { limit: settings[`throttle_${name}_requests_per_period`], periodSeconds: settings[`throttle_${name}_period_in_seconds`] };
}

/** Counts the request against its throttle; what refused it, or null when it may go on. */
export async function throttleRequest(deps: Deps, request: FastifyRequest, user: AuthUser | null, kind: 'api' | 'web'): Promise<Throttled | null> {
  const name: ThrottleName = `${user ? 'authenticated' : 'unauthenticated'}_${kind}`;
  const rule = limitOf(await currentSettings(deps), name);
  if (!rule) return null;
  const key = `throttle_${name}:${user ? `user:${user.id}` : `ip:${request.ip}`}`;
  const counted = await hit(deps.db, deps.clock, key, { limit: rule.limit, windowMs: rule.periodSeconds * 1000 });
  return counted.allowed ? null : { name: `throttle_${name}`, ...rule, hit: counted };
}

/** The protected paths' throttle (sign-in and the OAuth password grant and consent) per client address. */
export async function protectedPathThrottle(deps: Deps, path: string, ip: string): Promise<Throttled | null> {
  const rule = limitOf(await currentSettings(deps), 'protected_paths');
  if (!rule) return null;
  const counted = await hit(deps.db, deps.clock, `protected:${path}:${ip}`, { limit: rule.limit, windowMs: rule.periodSeconds * 1000 });
  return counted.allowed ? null : { name: 'throttle_protected_paths', ...rule, hit: counted };
}
