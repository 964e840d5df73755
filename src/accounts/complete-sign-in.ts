// The end of every successful sign-in (password, or password and second factor).
import type { PageContext } from '../platform/web/page-route.js';
import { redirect, type PageOutcome } from '../platform/web/page.js';
import { recordActivity } from './record-activity.js';
import { startSession } from './sessions.js';

/**
 * Start a fresh signed-in session (rotation defeats session fixation). A user whose password has
 * expired (root's generated one, one an administrator reset) is sent to choose a new one first, as
 * GitLab sends them.
 */
export async function completeSignIn(context: PageContext, userId: number, returnTo: string): Promise<PageOutcome> {
  const now = context.deps.clock.now();
  await recordActivity(context.deps, userId, now);
  await startSession(context.deps, context.request, context.reply, { userId });
  const user = await context.deps.db.selectFrom('users').select('password_expires_at').where('id', '=', userId).executeTakeFirst();
  const expiresAt = user?.password_expires_at;
  if (expiresAt !== null && expiresAt !== undefined && Number(expiresAt) <= now) {
    return redirect('/profile/password/edit', 'Your password has expired: choose a new one to go on.');
  }
  return redirect(returnTo);
}
