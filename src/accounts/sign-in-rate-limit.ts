// GitLab's protected-paths throttle (docs/security.md: 10 requests per minute per IP, on by default)
// for the sign-in form, its two-factor step, the OAuth password grant and authorize POSTs.
import type { Deps } from '../platform/deps.js';
import { hit } from '../platform/rate-limit.js';

export async function protectedPathHit(deps: Deps, path: string, ip: string) {
  return hit(deps.db, deps.clock, `protected:${path}:${ip}`, { limit: deps.config.protectedPathsPerMinute, windowMs: 60_000 });
}
