// The sign-up pages (docs/accounts.md): the form (/users/sign_up, posting to /users as Devise's
// registration does), the confirmation link (/users/confirmation) and the form asking for a new one
// (/users/confirmation/new). The forms share the protected-paths throttle of the sign-in form.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { NotFoundError } from '../platform/errors.js';
import { readApplicationSettings } from '../application-settings/api.js';
import { throttledForm } from './sign-in-rate-limit.js';
import { signUp, type SignUpInput, type SignUpOutcome } from './sign-up.js';
import { confirmSignUp, resendSignUpConfirmation } from './confirm-sign-up.js';
import { completeSignIn } from './complete-sign-in.js';
import { MIN_PASSWORD_LENGTH } from './passwords.js';
import { describedBy, fieldError, formText, submitForm, type FieldErrors } from './settings/shared.js';

const ANYONE = { instance: 'read_instance' } as const;
export const AWAITING_APPROVAL = 'You have signed up successfully. However, we could not sign you in because your account is awaiting approval from your administrator.';
export const CONFIRMATION_SENT = 'A message with a confirmation link has been sent to your email address. Please follow the link to activate your account.';
// Devise's paranoid answer for a new link: the same whether or not the address has an account.
export const CONFIRMATION_RESENT = 'If your email address exists in our database, you will receive an email with instructions for how to confirm your email address in a few minutes.';


const FIELDS = [
  ['name', 'Full name', 'text', 'name'],
  ['username', 'Username', 'text', 'username'],
  ['email', 'Email', 'email', 'email'],
] as const;

function signUpForm(context: PageContext, typed: Partial<SignUpInput> = {}, errors: FieldErrors = {}): PageOutcome {
  const failed = Object.keys(errors).length > 0;
  return page({
    title: 'Register',
    status: failed ? 400 : 200,
    body: html`
      ${failed ? html`<p class="error" role="alert">Your account was not created: correct the fields marked below.</p>` : ''}
      <form method="post" action="/users" class="stacked">
        ${csrfField(context)}
        ${FIELDS.map(([name, label, type, autocomplete]) => html`
          <label for="${name}">${label}</label>
          <input type="${type}" id="${name}" name="${name}" value="${typed[name] ?? ''}" autocomplete="${autocomplete}" required${describedBy(errors, name)}>
          ${fieldError(errors, name, label)}`)}
        <label for="password">Password</label>
        <input type="password" id="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required${describedBy(errors, 'password')}>
        ${fieldError(errors, 'password', 'Password')}
        <p class="hint">At least ${MIN_PASSWORD_LENGTH} characters.</p>
        <p><button type="submit">Register</button></p>
      </form>
      <p>Already have an account? <a href="/users/sign_in">Sign in</a></p>`,
  });
}

async function requireOpen(deps: Deps): Promise<void> {
  // Closed sign-up has no page at all, as GitLab's routes answer 404 then.
  if (!(await readApplicationSettings(deps.db)).signup_enabled) throw new NotFoundError();
}

export function signUpPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/users/sign_up', auth: 'optional', ability: ANYONE,
    handler: async (context) => {
      if (context.user) return redirect('/');
      await requireOpen(deps);
      return signUpForm(context);
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/users', auth: 'optional', ability: ANYONE,
    handler: async (context) => {
      await requireOpen(deps);
      const refused = await throttledForm(context, 'sign_up');
      if (refused) return refused;
      const input = { name: formText(context.form, 'name'), username: formText(context.form, 'username'), email: formText(context.form, 'email'), password: formText(context.form, 'password') };
      const done: { outcome?: SignUpOutcome } = {};
      const answer = await submitForm(
        async () => { done.outcome = await signUp(deps, input); },
        (errors) => signUpForm(context, input, errors),
        () => redirect('/users/sign_in', done.outcome?.kind === 'waiting' && done.outcome.approval ? AWAITING_APPROVAL : CONFIRMATION_SENT),
      );
      // Nothing to wait for: the new account is signed in, as GitLab signs it in.
      return done.outcome?.kind === 'active' ? completeSignIn(context, Number(done.outcome.user.id), '/') : answer;
    },
  });

  pageRoute(app, deps, {
    method: 'GET', url: '/users/confirmation', auth: 'optional', ability: ANYONE,
    handler: async (context) => {
      const token = typeof context.query.confirmation_token === 'string' ? context.query.confirmation_token : '';
      if (await confirmSignUp(deps, token)) return redirect('/users/sign_in', 'Your email address has been successfully confirmed.');
      return redirect('/users/confirmation/new', 'This confirmation link is invalid, was used already or has expired. Ask for a new one.');
    },
  });

  pageRoute(app, deps, {
    method: 'GET', url: '/users/confirmation/new', auth: 'optional', ability: ANYONE,
    handler: async (context) => page({
      title: 'Resend confirmation instructions',
      body: html`
        <form method="post" action="/users/confirmation" class="stacked">
          ${csrfField(context)}
          <label for="email">Email</label>
          <input type="email" id="email" name="email" autocomplete="email" required autofocus>
          <p><button type="submit">Resend</button></p>
        </form>
        <p><a href="/users/sign_in">Back to sign in</a></p>`,
    }),
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/users/confirmation', auth: 'optional', ability: ANYONE,
    handler: async (context) => {
      const refused = await throttledForm(context, 'sign_up');
      if (refused) return refused;
      await resendSignUpConfirmation(deps, formText(context.form, 'email'));
      // The banner's button (email_confirmation_setting `soft`) is pressed signed in.
      return redirect(context.user ? '/' : '/users/sign_in', CONFIRMATION_RESENT);
    },
  });
}
