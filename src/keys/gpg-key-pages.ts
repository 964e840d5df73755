// /profile/gpg_keys (GitLab's Profile → GPG Keys): add a key (its armored public block) and remove
// keys, as /profile/keys does for SSH keys; the same services as the API. Keys are listed with their
// primary key id, fingerprint and e-mails, which wrap on narrow screens.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { isoTime } from '../platform/clock.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { createGpgKey } from './create-gpg-key.js';
import { deleteGpgKey } from './delete-gpg-key.js';
import type { GpgKeyRow } from './entities.js';

const SIGNED_IN = { instance: 'log_in' } as const;

function keyItem(context: PageContext, key: GpgKeyRow): Html {
  return html`<li class="key-item">
    <h3><code>${key.primary_keyid}</code></h3>
    <p class="wrap-anywhere"><code>${key.fingerprint}</code></p>
    <p class="muted wrap-anywhere">${key.emails ? key.emails.split(' ').join(', ') : 'No e-mail addresses'} · Created ${isoTime(key.created_at)?.slice(0, 10)}</p>
    <form method="post" action="/profile/gpg_keys/${key.id}/delete" class="inline">${csrfField(context)}<button type="submit" class="danger" aria-label="Remove the GPG key ${key.primary_keyid}">Remove</button></form>
  </li>`;
}

async function gpgKeysPage(context: PageContext, extra: { errors?: Record<string, string[]>; key?: string } = {}): Promise<PageOutcome> {
  const keys = await context.deps.db.selectFrom('gpg_keys').selectAll().where('user_id', '=', context.user.id).orderBy('id').limit(200).execute();
  const errors = Object.entries(extra.errors ?? {}).map(([field, messages]) => html`<li>${field === 'key' ? 'Key' : field.replace(/_/g, ' ')} ${messages.join(', ')}</li>`);
  return page({
    title: 'GPG Keys',
    status: extra.errors ? 400 : 200,
    body: html`
      <p>GPG keys let Kiln verify the commits you sign (<code>git commit -S</code>): a signed commit whose committer e-mail is a confirmed address of yours and of the key shows as Verified.</p>
      ${errors.length ? html`<ul class="error" role="alert">${errors}</ul>` : ''}
      <h2>Add a GPG key</h2>
      <form method="post" action="/profile/gpg_keys" class="stacked">
        ${csrfField(context)}
        <label for="key">Key</label>
        <textarea id="key" name="key" required placeholder="The output of gpg --armor --export <your key id>: begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----'">${extra.key ?? ''}</textarea>
        <p><button type="submit">Add key</button></p>
      </form>
      <h2>Your GPG keys (${keys.length})</h2>
      ${keys.length ? html`<ul class="plain">${keys.map((key) => keyItem(context, key))}</ul>` : html`<p class="muted">There are no GPG keys with access to your account.</p>`}`,
  });
}

export function gpgKeyPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: '/profile/gpg_keys', ability: SIGNED_IN, handler: (context) => gpgKeysPage(context) });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/gpg_keys', ability: SIGNED_IN,
    handler: async (context) => {
      const key = typeof context.form.key === 'string' ? context.form.key : '';
      try {
        await createGpgKey(deps, context.user.id, key.slice(0, 100_001));
      } catch (error) {
        if (error instanceof ValidationError) return gpgKeysPage(context, { errors: error.fields, key });
        throw error;
      }
      return redirect('/profile/gpg_keys', 'The GPG key was added.');
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/gpg_keys/:id/delete', ability: SIGNED_IN,
    handler: async (context) => {
      const id = Number(context.params.id);
      try {
        if (!Number.isSafeInteger(id)) throw new NotFoundError('GPG Key');
        await deleteGpgKey(deps, context.user.id, id);
      } catch (error) {
        if (error instanceof NotFoundError) return redirect('/profile/gpg_keys', 'GPG key not found.');
        throw error;
      }
      return redirect('/profile/gpg_keys', 'The GPG key was removed.');
    },
  });
}
