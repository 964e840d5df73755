// The second sign-in step for two-factor users (issue 3): after the password, the session holds only
// a pending user; a TOTP code or a recovery code completes the sign-in in a fresh session. Failed
// codes count towards the same lock-out as failed passwords.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { recordFailedAttempt, isLocked } from './check-password.js';
import { verifySecondFactor } from './verify-second-factor.js';
import { protectedPathHit } from './sign-in-rate-limit.js';
import { html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, safeReturnTo, type PageOutcome } from '../platform/web/page.js';
import { startSession } from './sessions.js';
import { completeSignIn } from './complete-sign-in.js';

// A pending second step expires like GitLab's otp_user_id: the password must be typed again.
const PENDING_MS = 10 * 60_000;

export function twoFactorForm(context: PageContext, returnTo: string, error?: string): PageOutcome {
  return page({
    title: 'Two-factor authentication',
    status: error ? 401 : 200,
    body: html`
      ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      <form method="post" action="/users/sign_in/two_factor" class="stacked">
        ${csrfField(context)}
        <input type="hidden" name="return_to" value="${returnTo}">
        <label for="otp_attempt">Enter the code from the two-factor app on your mobile device. If you've lost your device, you may enter one of your recovery codes.</label>
        <input type="text" id="otp_attempt" name="otp_attempt" inputmode="numeric" autocomplete="one-time-code" required autofocus>
        <p><button type="submit">Verify code</button></p>
      </form>`,
  });
}

/** Password accepted for a two-factor user: a fresh session that only remembers who is half-way in. */
export async function beginSecondStep(context: PageContext, userId: number, returnTo: string): Promise<PageOutcome> {
  const session = await startSession(context.deps, context.request, context.reply, { pendingUserId: userId });
  return twoFactorForm({ ...context, session }, returnTo);
}

export function twoFactorSignInRoutes(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'POST', url: '/users/sign_in/two_factor', auth: 'optional', ability: { instance: 'read_instance' },
    handler: async (context) => {
      const returnTo = safeReturnTo(context.form.return_to);
      const limited = await protectedPathHit(deps, 'sign_in', context.request.ip);
      if (!limited.allowed) {
        context.reply.header('retry-after', String(limited.retryAfter));
        return page({ title: 'Too many requests', status: 429, body: html`<p class="error">Retry later.</p>` });
      }
      const pendingId = context.session.pendingUserId;
      if (pendingId === null) return redirect(`/users/sign_in?return_to=${encodeURIComponent(returnTo)}`);
      const session = await deps.db.selectFrom('web_sessions').select('created_at').where('id_digest', '=', context.session.idDigest).executeTakeFirst();
      const user = await deps.db.selectFrom('users').selectAll().where('id', '=', pendingId).executeTakeFirst();
      const now = deps.clock.now();
      if (!session || now - Number(session.created_at) > PENDING_MS || !user || user.state !== 'active') {
        await startSession(deps, context.request, context.reply);
        return redirect(`/users/sign_in?return_to=${encodeURIComponent(returnTo)}`, 'Your sign-in took too long. Sign in again.');
      }
      const code = typeof context.form.otp_attempt === 'string' ? context.form.otp_attempt : '';
      if (isLocked(user, now) || !(await verifySecondFactor(deps, user, code))) {
        await recordFailedAttempt(deps, Number(user.id));
        return twoFactorForm(context, returnTo, 'Invalid two-factor code.');
      }
      if (user.failed_attempts > 0) await deps.db.updateTable('users').set({ failed_attempts: 0, locked_until: null }).where('id', '=', user.id).execute();
      return completeSignIn(context, Number(user.id), returnTo);
    },
  });
}
