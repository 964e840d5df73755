// GitLab's protected-paths throttle (docs/security.md: 10 requests per minute per IP, on by default;
// the throttle_protected_paths_* application settings) for the sign-in form, its two-factor step,
// the OAuth password grant and authorize POSTs.
import type { Deps } from '../platform/deps.js';
import { protectedPathThrottle } from '../application-settings/api.js';
import { html } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import { page, type PageOutcome } from '../platform/web/page.js';

export async function protectedPathHit(deps: Deps, path: string, ip: string): Promise<{ allowed: boolean; retryAfter: number }> {
  const throttled = await protectedPathThrottle(deps, path, ip);
  return throttled ? { allowed: false, retryAfter: throttled.hit.retryAfter } : { allowed: true, retryAfter: 0 };
}

/** A form page's throttle: the 429 page (with Retry-After) once `path` is over the limit, else null. */
export async function throttledForm(context: PageContext, path: string): Promise<PageOutcome | null> {
  const limited = await protectedPathHit(context.deps, path, context.request.ip);
  if (limited.allowed) return null;
  context.reply.header('retry-after', String(limited.retryAfter));
  return page({ title: 'Too many requests', status: 429, body: html`<p class="error" role="alert">Retry later.</p>` });
}
