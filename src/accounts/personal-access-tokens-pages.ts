// /profile/personal_access_tokens: create (name, scopes, expiry; the token is shown once), list, revoke.
// Two-factor users reach the API this way (specification, Authentication 8).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { ValidationError } from '../platform/errors.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { canOnInstance } from '../platform/auth/policies/policy.js';
import { createPersonalAccessToken, scopesAvailableTo } from './create-personal-access-token.js';
import { revokePersonalAccessToken } from './revoke-personal-access-token.js';
import { tokenEntity } from './token-entities.js';

function list(form: Record<string, string | string[]>, name: string): string[] {
  const value = form[name];
  return Array.isArray(value) ? value : typeof value === 'string' && value !== '' ? [value] : [];
}

async function tokensPage(context: PageContext, extra: { created?: string; errors?: Record<string, string[]> } = {}): Promise<PageOutcome> {
  const rows = await context.deps.db.selectFrom('personal_access_tokens').selectAll().where('user_id', '=', context.user.id).where('revoked', '=', 0).orderBy('id', 'desc').limit(100).execute();
  const now = context.deps.clock.now();
  const active = rows.map((row) => tokenEntity(row, now)).filter((token) => token.active);
  const errors: Html[] = Object.entries(extra.errors ?? {}).map(([field, messages]) => html`<li>${field} ${messages.join(', ')}</li>`);
  return page({
    title: 'Personal access tokens',
    status: extra.errors ? 400 : 200,
    body: html`
      ${extra.created ? html`<div class="flash" role="status"><p>Your new personal access token has been created. Copy it now: it will not be shown again.</p><p><code id="created-personal-access-token">${extra.created}</code></p></div>` : ''}
      ${errors.length ? html`<ul class="error" role="alert">${errors}</ul>` : ''}
      <h2>Add a personal access token</h2>
      <form method="post" action="/profile/personal_access_tokens" class="stacked">
        ${csrfField(context)}
        <label for="name">Token name</label>
        <input type="text" id="name" name="name" required>
        <label for="expires_at">Expiration date</label>
        <input type="date" id="expires_at" name="expires_at">
        <fieldset><legend>Scopes</legend>
          ${scopesAvailableTo(canOnInstance(context.user, 'admin_all_resources')).map((scope) => html`<label><input type="checkbox" name="scopes[]" value="${scope}"> ${scope}</label>`)}
        </fieldset>
        <p><button type="submit">Create personal access token</button></p>
      </form>
      <h2>Active personal access tokens (${active.length})</h2>
      <table><thead><tr><th>Name</th><th>Scopes</th><th>Created</th><th>Last used</th><th>Expires</th><th></th></tr></thead><tbody>
      ${active.map((token) => html`<tr><td>${token.name}</td><td>${token.scopes.join(', ')}</td><td>${token.created_at}</td><td>${token.last_used_at ?? 'Never'}</td><td>${token.expires_at ?? 'Never'}</td>
        <td><form method="post" action="/profile/personal_access_tokens/${token.id}/revoke" class="inline">${csrfField(context)}<button type="submit" class="danger">Revoke</button></form></td></tr>`)}
      </tbody></table>`,
  });
}

// The signed-in user's own settings.
const SIGNED_IN = { instance: 'log_in' } as const;

export function personalAccessTokenPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: '/profile/personal_access_tokens', ability: SIGNED_IN, handler: (context) => tokensPage(context) });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/personal_access_tokens', ability: SIGNED_IN,
    handler: async (context) => {
      const name = typeof context.form.name === 'string' ? context.form.name : '';
      const expiresAt = typeof context.form.expires_at === 'string' && context.form.expires_at !== '' ? context.form.expires_at : null;
      if (expiresAt !== null && !/^\d{4}-\d\d-\d\d$/.test(expiresAt)) return tokensPage(context, { errors: { expires_at: ['is invalid'] } });
      try {
        const { token } = await createPersonalAccessToken(deps, { userId: context.user.id, name, scopes: list(context.form, 'scopes'), expiresAt, availableScopes: scopesAvailableTo(canOnInstance(context.user, 'admin_all_resources')) });
        return tokensPage(context, { created: token });
      } catch (error) {
        if (error instanceof ValidationError) return tokensPage(context, { errors: error.fields });
        throw error;
      }
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/personal_access_tokens/:id/revoke', ability: SIGNED_IN,
    handler: async (context) => {
      const id = Number(context.params.id);
      const row = Number.isInteger(id) ? await deps.db.selectFrom('personal_access_tokens').select(['id', 'user_id']).where('id', '=', id).executeTakeFirst() : undefined;
      if (!row || Number(row.user_id) !== context.user.id) return redirect('/profile/personal_access_tokens', 'Token not found.');
      await revokePersonalAccessToken(deps, id);
      return redirect('/profile/personal_access_tokens', 'Revoked personal access token.');
    },
  });
}
