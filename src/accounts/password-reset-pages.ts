// The forgotten-password pages: ask for a link (/users/password/new), then choose a new password
// through it (/users/password/edit?reset_password_token=…). Both forms are throttled per address as
// the sign-in form is; the request always answers with the same sentence.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { throttledForm } from './sign-in-rate-limit.js';
import { requestPasswordReset } from './request-password-reset.js';
import { resetPassword, userOfResetToken } from './reset-password.js';
import { MIN_PASSWORD_LENGTH } from './passwords.js';
import { describedBy, fieldError, formText, submitForm, type FieldErrors } from './settings/shared.js';

const ANYONE = { instance: 'read_instance' } as const;
// Devise's paranoid answer: the same whether or not an account has the address.
export const RESET_REQUESTED = 'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.';
const LINK_INVALID = 'This password reset link is invalid or has expired. Ask for a new one.';


function newPasswordForm(context: PageContext, token: string, errors: FieldErrors = {}): PageOutcome {
  const failed = Object.keys(errors).length > 0;
  return page({
    title: 'Change your password',
    status: failed ? 400 : 200,
    body: html`
      ${failed ? html`<p class="error" role="alert">The password was not changed: correct the fields marked below.</p>` : ''}
      <form method="post" action="/users/password/edit" class="stacked">
        ${csrfField(context)}
        <input type="hidden" name="reset_password_token" value="${token}">
        <label for="password">New password</label>
        <input type="password" id="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required${describedBy(errors, 'password')}>
        ${fieldError(errors, 'password', 'Password')}
        <label for="password_confirmation">Confirm new password</label>
        <input type="password" id="password_confirmation" name="password_confirmation" autocomplete="new-password" required${describedBy(errors, 'password_confirmation')}>
        ${fieldError(errors, 'password_confirmation', 'Password confirmation')}
        <p><button type="submit">Change your password</button></p>
      </form>`,
  });
}

export function passwordResetPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/users/password/new', auth: 'optional', ability: ANYONE,
    handler: async (context) => page({
      title: 'Forgot your password?',
      body: html`
        <p>Enter the e-mail address of your account: a link to choose a new password will be sent to it.</p>
        <form method="post" action="/users/password" class="stacked">
          ${csrfField(context)}
          <label for="email">E-mail</label>
          <input type="email" id="email" name="email" autocomplete="email" required autofocus>
          <p><button type="submit">Reset password</button></p>
        </form>
        <p><a href="/users/sign_in">Back to sign in</a></p>`,
    }),
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/users/password', auth: 'optional', ability: ANYONE,
    handler: async (context) => {
      const refused = await throttledForm(context, 'password');
      if (refused) return refused;
      await requestPasswordReset(deps, formText(context.form, 'email'));
      return redirect('/users/sign_in', RESET_REQUESTED);
    },
  });

  pageRoute(app, deps, {
    method: 'GET', url: '/users/password/edit', auth: 'optional', ability: ANYONE,
    handler: async (context) => {
      const token = typeof context.query.reset_password_token === 'string' ? context.query.reset_password_token : '';
      if (!(await userOfResetToken(deps, token))) return redirect('/users/password/new', LINK_INVALID);
      return newPasswordForm(context, token);
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/users/password/edit', auth: 'optional', ability: ANYONE,
    handler: async (context) => {
      const refused = await throttledForm(context, 'password');
      if (refused) return refused;
      const token = formText(context.form, 'reset_password_token');
      let changed = false;
      return submitForm(
        async () => { changed = await resetPassword(deps, token, formText(context.form, 'password'), formText(context.form, 'password_confirmation')); },
        (errors) => newPasswordForm(context, token, errors),
        () => (changed ? redirect('/users/sign_in', 'Your password has been changed successfully. Sign in with it.') : redirect('/users/password/new', LINK_INVALID)),
      );
    },
  });
}
