// Sign-in and sign-out pages: GitLab's protected-path rate limit (10 per minute per IP), the shared
// password check with lock-out, and the second step for two-factor users (sign-in-two-factor.ts).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { checkPassword } from './check-password.js';
import { protectedPathHit } from './sign-in-rate-limit.js';
import { beginSecondStep, twoFactorSignInRoutes } from './sign-in-two-factor.js';
import { html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, safeReturnTo, type PageOutcome } from '../platform/web/page.js';
import { endSession } from './sessions.js';
import { completeSignIn } from './complete-sign-in.js';
import { publishFailedLogin } from './system-events.js';
import { readApplicationSettings, type ApplicationSettings } from '../application-settings/api.js';
import { confirmationMode } from './confirmation-period.js';

// What a sign-up that is not usable yet is told, once its password was right (Devise's and GitLab's
// messages); every other failure gets the one sentence that reveals nothing.
const SIGN_IN_REFUSALS: Partial<Record<string, string>> = {
  pending: 'Your account is pending approval from your administrator and hence blocked. Please contact your administrator if you think this is an error.',
  unconfirmed: 'You have to confirm your email address before continuing.',
};

/** What the form links to besides signing in depends on the instance's sign-up settings. */
type SignUpSettings = Pick<ApplicationSettings, 'signup_enabled' | 'send_user_confirmation_email' | 'email_confirmation_setting'>;

function signInForm(context: PageContext, returnTo: string, settings: SignUpSettings, error?: string, login = ''): PageOutcome {
  return page({
    title: 'Sign in',
    status: error ? 401 : 200,
    body: html`
      ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      <form method="post" action="/users/sign_in" class="stacked">
        ${csrfField(context)}
        <input type="hidden" name="return_to" value="${returnTo}">
        <label for="login">Username or email</label>
        <input type="text" id="login" name="login" value="${login}" autocomplete="username" required autofocus>
        <label for="password">Password</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required>
        <p><button type="submit">Sign in</button></p>
      </form>
      <p><a href="/users/password/new">Forgot your password?</a></p>
      ${confirmationMode(settings) !== 'off' ? html`<p><a href="/users/confirmation/new">Didn't receive a confirmation e-mail?</a></p>` : ''}
      ${settings.signup_enabled ? html`<p>Don't have an account yet? <a href="/users/sign_up">Register now</a></p>` : ''}
      <p><a href="/explore">Explore projects and groups</a></p>`,
  });
}

export function signInRoutes(app: FastifyInstance, deps: Deps): void {
  twoFactorSignInRoutes(app, deps);
  pageRoute(app, deps, {
    method: 'GET', url: '/users/sign_in', auth: 'optional', ability: { instance: 'read_instance' },
    handler: async (context) => {
      const returnTo = safeReturnTo(context.query.return_to);
      if (context.user) return redirect(returnTo);
      return signInForm(context, returnTo, await readApplicationSettings(deps.db));
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/users/sign_in', auth: 'optional', ability: { instance: 'read_instance' },
    handler: async (context) => {
      const returnTo = safeReturnTo(context.form.return_to);
      const login = typeof context.form.login === 'string' ? context.form.login : '';
      const password = typeof context.form.password === 'string' ? context.form.password : '';
      const limited = await protectedPathHit(deps, 'sign_in', context.request.ip);
      if (!limited.allowed) {
        context.reply.header('retry-after', String(limited.retryAfter));
        return page({ title: 'Too many requests', status: 429, body: html`<p class="error" role="alert">Retry later.</p>` });
      }
      // One message for every failure (unknown, wrong, locked, blocked), so the form does not reveal
      // which accounts exist (ASVS 6.3.8).
      // Signing in again reactivates a deactivated account (GitLab's documented way back).
      const check = await checkPassword(deps, login, password, { reactivate: true });
      const settings = await readApplicationSettings(deps.db);
      if (!check.ok) {
        // System hooks hear of a blocked user's attempt (user_failed_login); the form says no more than for any failure.
        if (check.reason === 'blocked' && check.user?.state === 'blocked') await publishFailedLogin(deps, Number(check.user.id));
        return signInForm(context, returnTo, settings, SIGN_IN_REFUSALS[check.reason] ?? 'Invalid login or password.', login);
      }
      if (check.user.otp_required === 1) return beginSecondStep(context, Number(check.user.id), returnTo);
      return completeSignIn(context, Number(check.user.id), returnTo);
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/users/sign_out', auth: 'optional', ability: { instance: 'read_instance' },
    handler: async (context) => {
      await endSession(deps, context.request, context.reply);
      return redirect('/users/sign_in', null);
    },
  });
}
