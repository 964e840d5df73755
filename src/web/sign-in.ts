// Sign-in and sign-out pages. Password check here; the two-factor step, rate limit and lock-out
// plug in around `completePasswordSignIn`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { verifyPassword } from '../accounts/passwords.js';
import { html } from './html.js';
import { csrfField, pageRoute, type PageContext } from './page-route.js';
import { page, redirect, safeReturnTo, type PageOutcome } from './page.js';
import { endSession, startSession } from './sessions.js';

function signInForm(context: PageContext, returnTo: string, error?: string, login = ''): PageOutcome {
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
      </form>`,
  });
}

async function findByLogin(deps: Deps, login: string) {
  const key = login.trim().toLowerCase();
  return deps.db.selectFrom('users').selectAll().where((eb) => eb.or([eb('username_lower', '=', key), eb('email_lower', '=', key)])).executeTakeFirst();
}

/** Password accepted: start a fresh signed-in session (rotation defeats session fixation). */
export async function completePasswordSignIn(context: PageContext, userId: number, returnTo: string): Promise<PageOutcome> {
  await startSession(context.deps, context.request, context.reply, { userId });
  return redirect(returnTo);
}

export function signInRoutes(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/users/sign_in', auth: 'optional',
    handler: async (context) => {
      const returnTo = safeReturnTo(context.query.return_to);
      if (context.user) return redirect(returnTo);
      return signInForm(context, returnTo);
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/users/sign_in', auth: 'optional',
    handler: async (context) => {
      const returnTo = safeReturnTo(context.form.return_to);
      const login = typeof context.form.login === 'string' ? context.form.login : '';
      const password = typeof context.form.password === 'string' ? context.form.password : '';
      const user = login ? await findByLogin(deps, login) : undefined;
      // One message for every failure, so the form does not reveal which accounts exist.
      const valid = await verifyPassword(user?.password_hash ?? null, password);
      if (!user || !valid || user.state !== 'active') return signInForm(context, returnTo, 'Invalid login or password.', login);
      return completePasswordSignIn(context, Number(user.id), returnTo);
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/users/sign_out', auth: 'optional',
    handler: async (context) => {
      await endSession(deps, context.request, context.reply);
      return redirect('/users/sign_in', null);
    },
  });
}
