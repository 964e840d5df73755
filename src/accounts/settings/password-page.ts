// /profile/password/edit: change one's password (the current one first); every other session of the
// user is signed out. Where a user whose password must change (root's generated one) is sent after
// signing in.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { html } from '../../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { changePassword } from '../change-password.js';
import { MIN_PASSWORD_LENGTH } from '../passwords.js';
import { currentUserRow, describedBy, fieldError, formText, settingsTabs, submitForm, type FieldErrors } from './shared.js';

const SIGNED_IN = { instance: 'log_in' } as const;

async function passwordForm(context: PageContext, errors: FieldErrors = {}): Promise<PageOutcome> {
  const user = await currentUserRow(context.deps, context.user.id);
  const mustChange = user.password_expires_at !== null && Number(user.password_expires_at) <= context.deps.clock.now();
  const failed = Object.keys(errors).length > 0;
  return page({
    title: 'Password',
    status: failed ? 400 : 200,
    body: html`${settingsTabs('/profile/password/edit')}
      ${mustChange ? html`<p class="flash" role="status">Your password must be changed before you go on: choose a new one.</p>` : ''}
      ${failed ? html`<p class="error" role="alert">The password was not changed: correct the fields marked below.</p>` : ''}
      <p>After a change you stay signed in here; every other browser signed in as you is signed out.</p>
      <form method="post" action="/profile/password" class="stacked">
        ${csrfField(context)}
        <input type="text" name="username" value="${user.username}" autocomplete="username" hidden>
        <label for="current_password">Current password</label>
        <input type="password" id="current_password" name="current_password" autocomplete="current-password" required${describedBy(errors, 'current_password')}>
        ${fieldError(errors, 'current_password', 'Current password')}
        <label for="password">New password</label>
        <input type="password" id="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required${describedBy(errors, 'password')}>
        ${fieldError(errors, 'password', 'Password')}
        <label for="password_confirmation">Password confirmation</label>
        <input type="password" id="password_confirmation" name="password_confirmation" autocomplete="new-password" required${describedBy(errors, 'password_confirmation')}>
        ${fieldError(errors, 'password_confirmation', 'Password confirmation')}
        <p><button type="submit">Save password</button></p>
      </form>`,
  });
}

export function passwordPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: '/profile/password/edit', ability: SIGNED_IN, handler: (context) => passwordForm(context) });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/password', ability: SIGNED_IN,
    handler: async (context) => {
      const input = { currentPassword: formText(context.form, 'current_password'), password: formText(context.form, 'password'), confirmation: formText(context.form, 'password_confirmation') };
      return submitForm(() => changePassword(deps, context.user.id, context.session.idDigest, input), (errors) => passwordForm(context, errors), () => redirect('/profile/password/edit', 'Password was successfully updated.'));
    },
  });
}
