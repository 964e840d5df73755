// /profile/two_factor_auth: enrol (secret as text and QR code, confirmed by a code, then recovery
// codes shown once) and disable (after typing the password again, ASVS 5.0 7.5.1).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { verifyPassword } from './passwords.js';
import { beginEnrolment } from './begin-two-factor-enrolment.js';
import { confirmEnrolment } from './confirm-two-factor-enrolment.js';
import { disableTwoFactor } from './disable-two-factor.js';
import { provisioning } from './two-factor-provisioning.js';
import { remainingRecoveryCodes } from './recovery-codes.js';
import type { UserRow } from './lookup.js';

async function currentUser(deps: Deps, id: number): Promise<UserRow> {
  return deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

function enabledPage(context: PageContext, user: UserRow, error?: string): PageOutcome {
  return page({
    title: 'Two-factor authentication',
    status: error ? 400 : 200,
    body: html`
      ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      <p><span class="badge">Enabled</span> Two-factor authentication is on. ${remainingRecoveryCodes(user)} recovery codes left.</p>
      <p>Use <a href="/profile/personal_access_tokens">personal access tokens</a> for the API and Git over HTTP: the OAuth password grant is not available to you.</p>
      <h2>Disable two-factor authentication</h2>
      <form method="post" action="/profile/two_factor_auth/disable" class="stacked">
        ${csrfField(context)}
        <label for="current_password">Current password</label>
        <input type="password" id="current_password" name="current_password" autocomplete="current-password" required>
        <p><button type="submit" class="danger">Disable two-factor authentication</button></p>
      </form>`,
  });
}

async function enrolPage(context: PageContext, user: UserRow, error?: string): Promise<PageOutcome> {
  const setup = provisioning(context.deps, user);
  if (!setup) throw new Error('enrolment secret missing');
  // Loaded here: only this page draws a QR code.
  const { default: QRCode } = await import('qrcode');
  const qr = await QRCode.toDataURL(setup.uri, { margin: 1, width: 200 });
  return page({
    title: 'Two-factor authentication',
    status: error ? 400 : 200,
    body: html`
      ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      <p>Scan this QR code with a TOTP app (for example FreeOTP or Google Authenticator), or enter the key by hand.</p>
      <p><img src="${qr}" alt="QR code for two-factor authentication" width="200" height="200" id="otp-qr"></p>
      <p>Key: <code id="otp-secret">${setup.secret}</code></p>
      <form method="post" action="/profile/two_factor_auth" class="stacked">
        ${csrfField(context)}
        <label for="pin_code">Pin code</label>
        <input type="text" id="pin_code" name="pin_code" inputmode="numeric" autocomplete="one-time-code" required>
        <p><button type="submit">Register with two-factor app</button></p>
      </form>`,
  });
}

// The signed-in user's own settings.
const SIGNED_IN = { instance: 'log_in' } as const;

export function twoFactorPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/profile/two_factor_auth', ability: SIGNED_IN,
    handler: async (context) => {
      let user = await currentUser(deps, context.user.id);
      if (user.otp_required === 1) return enabledPage(context, user);
      if (!user.otp_secret_sealed) {
        await beginEnrolment(deps, user);
        user = await currentUser(deps, context.user.id);
      }
      return enrolPage(context, user);
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/two_factor_auth', ability: SIGNED_IN,
    handler: async (context) => {
      const user = await currentUser(deps, context.user.id);
      if (user.otp_required === 1) return enabledPage(context, user);
      if (!user.otp_secret_sealed) return redirect('/profile/two_factor_auth');
      const code = typeof context.form.pin_code === 'string' ? context.form.pin_code : '';
      const codes = await confirmEnrolment(deps, user, code);
      if (!codes) return enrolPage(context, user, 'Invalid pin code. Try again.');
      return page({
        title: 'Two-factor authentication',
        flash: 'You have set up two-factor authentication.',
        body: html`
          <p>Save these recovery codes somewhere safe. Each can be used once to sign in if you lose your device. They will not be shown again.</p>
          <pre id="recovery-codes">${codes.join('\n')}</pre>
          <p><a href="/">Proceed</a></p>`,
      });
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/two_factor_auth/disable', ability: SIGNED_IN,
    handler: async (context) => {
      const user = await currentUser(deps, context.user.id);
      if (user.otp_required !== 1) return redirect('/profile/two_factor_auth');
      const password = typeof context.form.current_password === 'string' ? context.form.current_password : '';
      if (!(await verifyPassword(user.password_hash, password))) return enabledPage(context, user, 'You must provide a valid current password.');
      await disableTwoFactor(deps, Number(user.id));
      return redirect('/profile/two_factor_auth', 'Two-factor authentication has been disabled.');
    },
  });
}
