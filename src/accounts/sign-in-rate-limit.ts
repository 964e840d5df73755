// GitLab's protected-paths throttle (docs/security.md: 10 requests per minute per IP, on by default)
// for the sign-in form, its two-factor step, the OAuth password grant and authorize POSTs.
import type { Deps } from '../platform/deps.js';
import { hit } from '../platform/rate-limit.js';
import { html } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import { page, type PageOutcome } from '../platform/web/page.js';

export async function protectedPathHit(deps: Deps, path: string, ip: string) {
  return hit(deps.db, deps.clock, `protected:${path}:${ip}`, { limit: deps.config.protectedPathsPerMinute, windowMs: 60_000 });
}

/** A form page's throttle: the 429 page (with Retry-After) once `path` is over the limit, else null. */
export async function throttledForm(context: PageContext, path: string): Promise<PageOutcome | null> {
  const limited = await protectedPathHit(context.deps, path, context.request.ip);
  if (limited.allowed) return null;
  context.reply.header('retry-after', String(limited.retryAfter));
  return page({ title: 'Too many requests', status: 429, body: html`<p class="error" role="alert">Retry later.</p>` });
}
