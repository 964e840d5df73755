// /profile/keys (GitLab's Profile → SSH Keys): add a key (title, key, expiry, usage type) and remove
// keys. Server-rendered forms with CSRF tokens; the key text and fingerprints wrap on narrow screens.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { isoTime } from '../platform/clock.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import type { KeyUsageType } from '../platform/db/tables/keys.js';
import { findUser } from '../accounts/api.js';
import { createKey } from './create-key.js';
import { deleteKey } from './delete-key.js';
import { userKeysQuery } from './keys-finder.js';
import { KEY_USAGE_TYPES, expiryOf } from './validate-key.js';
import type { KeyRow } from './entities.js';

const USAGE_LABELS: Record<KeyUsageType, string> = { auth_and_signing: 'Authentication & Signing', auth: 'Authentication', signing: 'Signing' };

function text(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

function keyItem(context: PageContext, key: KeyRow): Html {
  const expires = isoTime(key.expires_at)?.slice(0, 10);
  return html`<li class="key-item">
    <h3>${key.title}</h3>
    <p class="wrap-anywhere"><code>SHA256:${key.fingerprint_sha256}</code></p>
    <p class="muted">${key.algorithm} · ${USAGE_LABELS[key.usage_type]} · Created ${isoTime(key.created_at)?.slice(0, 10)} · Last used ${isoTime(key.last_used_at)?.slice(0, 10) ?? 'never'} · ${expires ? `Expires ${expires}` : 'Never expires'}</p>
    <form method="post" action="/profile/keys/${key.id}/delete" class="inline">${csrfField(context)}<button type="submit" class="danger" aria-label="Remove the key ${key.title}">Remove</button></form>
  </li>`;
}

async function keysPage(context: PageContext, extra: { errors?: Record<string, string[]>; form?: Record<string, string | string[]> } = {}): Promise<PageOutcome> {
  const keys = await userKeysQuery(context.deps, context.user.id).limit(200).execute();
  const form = extra.form ?? {};
  const errors: Html[] = Object.entries(extra.errors ?? {}).map(([field, messages]) => html`<li>${field === 'fingerprint_sha256' ? 'Key' : field[0].toUpperCase() + field.slice(1)} ${messages.join(', ')}</li>`);
  return page({
    title: 'SSH Keys',
    status: extra.errors ? 400 : 200,
    body: html`
      <p>SSH keys let you use git over SSH (<a href="/help/instance_configuration">the server's fingerprints</a>).</p>
      ${errors.length ? html`<ul class="error" role="alert">${errors}</ul>` : ''}
      <h2>Add an SSH key</h2>
      <form method="post" action="/profile/keys" class="stacked">
        ${csrfField(context)}
        <label for="key">Key</label>
        <textarea id="key" name="key" required placeholder="Begins with 'ssh-ed25519', 'ecdsa-sha2-nistp256', 'ssh-rsa', 'sk-ssh-ed25519@openssh.com' or 'sk-ecdsa-sha2-nistp256@openssh.com'">${text(form, 'key')}</textarea>
        <label for="title">Title</label>
        <input type="text" id="title" name="title" required maxlength="255" value="${text(form, 'title')}">
        <label for="usage_type">Usage type</label>
        <select id="usage_type" name="usage_type">${KEY_USAGE_TYPES.map((usage) => html`<option value="${usage}" ${text(form, 'usage_type') === usage || (!form.usage_type && usage === 'auth_and_signing') ? 'selected' : ''}>${USAGE_LABELS[usage]}</option>`)}</select>
        <label for="expires_at">Expiration date</label>
        <input type="date" id="expires_at" name="expires_at" value="${text(form, 'expires_at')}">
        <p><button type="submit">Add key</button></p>
      </form>
      <h2>Your SSH keys (${keys.length})</h2>
      ${keys.length ? html`<ul class="plain">${keys.map((key) => keyItem(context, key))}</ul>` : html`<p class="muted">There are no SSH keys with access to your account.</p>`}`,
  });
}

// The signed-in user's own settings.
const SIGNED_IN = { instance: 'log_in' } as const;

export function keyPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: '/profile/keys', ability: SIGNED_IN, handler: (context) => keysPage(context) });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/keys', ability: SIGNED_IN,
    handler: async (context) => {
      const usage = text(context.form, 'usage_type') || 'auth_and_signing';
      const expiresAt = expiryOf(text(context.form, 'expires_at'));
      if (!(KEY_USAGE_TYPES as readonly string[]).includes(usage)) return keysPage(context, { errors: { usage_type: ['is not included in the list'] }, form: context.form });
      if (expiresAt === undefined) return keysPage(context, { errors: { expires_at: ['is invalid'] }, form: context.form });
      const user = await findUser(deps, context.user.id);
      try {
        await createKey(deps, { id: Number(user.id), name: user.name, email: user.email }, { title: text(context.form, 'title'), key: text(context.form, 'key'), expiresAt, usageType: usage as KeyUsageType });
      } catch (error) {
        if (error instanceof ValidationError) return keysPage(context, { errors: error.fields, form: context.form });
        throw error;
      }
      return redirect('/profile/keys', 'The SSH key was added.');
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/keys/:id/delete', ability: SIGNED_IN,
    handler: async (context) => {
      const id = Number(context.params.id);
      try {
        if (!Number.isSafeInteger(id)) throw new NotFoundError('Key');
        await deleteKey(deps, context.user.id, id);
      } catch (error) {
        if (error instanceof NotFoundError) return redirect('/profile/keys', 'Key not found.');
        throw error;
      }
      return redirect('/profile/keys', 'The SSH key was removed.');
    },
  });
}
