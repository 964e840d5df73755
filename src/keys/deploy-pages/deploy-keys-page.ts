// A project's deploy keys at `/<project>/-/deploy_keys` (GitLab's Settings › Repository › Deploy
// keys): the keys enabled on the project with their push access, a form to add one, the keys the
// visitor may enable here (public ones, and those of other projects they maintain), and buttons to
// grant or take away write access and to remove a key. Every form calls the API's services, so the
// rules and messages are the API's.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { Deps } from '../../platform/deps.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { expiryOf } from '../validate-key.js';
import { mayEnableDeployKey, projectDeployKeysQuery, type ProjectDeployKeyRow } from '../deploy-keys-finder.js';
import { createProjectDeployKey } from '../create-deploy-key.js';
import { enableDeployKey } from '../enable-deploy-key.js';
import { updateDeployKey } from '../update-deploy-key.js';
import { removeDeployKeyFromProject } from '../remove-deploy-key.js';
import type { KeyRow } from '../entities.js';
import { day, formId, formText, refusals, type Form } from './form.js';

export const DEPLOY_KEYS_PATTERN = /^(?<path>.+?)\/-\/deploy_keys$/;
export const DEPLOY_KEY_ACTION_PATTERN = /^(?<path>.+?)\/-\/deploy_keys\/(?<key_id>[^/]+)\/(?<action>enable|disable|can_push)$/;

/** How many keys a page reads: a settings page, not an export. */
const LIMIT = 200;

const keysUrl = (access: ProjectAccess) => `/${access.project.full_path}/-/deploy_keys`;

/**
 * Deploy keys not enabled on this project that the user may enable here (GitLab's
 * User#accessible_deploy_keys), decided by the same rule as the API's enable.
 */
async function enableableKeys(deps: Deps, user: AuthUser, projectId: number): Promise<KeyRow[]> {
  const candidates = await deps.db
    .selectFrom('keys')
    .selectAll()
    .where('type', '=', 'DeployKey')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('deploy_keys_projects').select('id').whereRef('deploy_key_id', '=', 'keys.id').where('project_id', '=', projectId))))
    .orderBy('id')
    .limit(LIMIT)
    .execute();
  const allowed: KeyRow[] = [];
  for (const key of candidates) if (await mayEnableDeployKey(deps, user, key)) allowed.push(key);
  return allowed;
}

function actionButton(context: PageContext, access: ProjectAccess, key: KeyRow, action: string, label: string, extra: Html = html``, danger = false): Html {
  return html`<form method="post" action="${keysUrl(access)}/${key.id}/${action}" class="inline">${csrfField(context)}${extra}<button type="submit" class="small${danger ? ' danger' : ' secondary'}" aria-label="${label} (${key.title})">${label}</button></form>`;
}

function enabledKey(context: PageContext, access: ProjectAccess, key: ProjectDeployKeyRow): Html {
  const canPush = Number(key.link_can_push) === 1;
  const expires = day(key.expires_at);
  return html`<li class="key-item" data-deploy-key="${key.id}">
    <h3>${key.title}</h3>
    <p class="wrap-anywhere"><code>SHA256:${key.fingerprint_sha256}</code></p>
    <p class="muted">${canPush ? 'Read and write' : 'Read-only'}${Number(key.public) === 1 ? ' · Public' : ''} · Created ${day(key.created_at)} · Last used ${day(key.last_used_at) ?? 'never'} · ${expires ? `Expires ${expires}` : 'Never expires'}</p>
    <p class="actions">
      ${actionButton(context, access, key, 'can_push', canPush ? 'Make read-only' : 'Grant write permissions', html`<input type="hidden" name="can_push" value="${canPush ? '0' : '1'}">`)}
      ${actionButton(context, access, key, 'disable', 'Remove', html``, true)}
    </p>
  </li>`;
}

function availableKey(context: PageContext, access: ProjectAccess, key: KeyRow): Html {
  return html`<li class="key-item" data-available-key="${key.id}">
    <h3>${key.title}</h3>
    <p class="wrap-anywhere"><code>SHA256:${key.fingerprint_sha256}</code></p>
    <p class="muted">${Number(key.public) === 1 ? 'Public deploy key' : 'Deploy key of another project you maintain'} · Created ${day(key.created_at)}</p>
    <p class="actions">${actionButton(context, access, key, 'enable', 'Enable')}</p>
  </li>`;
}

export async function renderDeployKeys(context: PageContext, access: ProjectAccess, extra: { errors?: Record<string, string[]>; form?: Form } = {}): Promise<PageOutcome> {
  const projectId = Number(access.project.id);
  const [enabled, available] = await Promise.all([projectDeployKeysQuery(context.deps, projectId).limit(LIMIT).execute(), enableableKeys(context.deps, context.user, projectId)]);
  const form = extra.form ?? {};
  const body = html`
<p class="muted">Deploy keys give read-only or read-write access to this repository over SSH, for a server or a CI machine rather than a person.</p>
${refusals(extra.errors)}
<section aria-labelledby="add-deploy-key-heading">
<h2 id="add-deploy-key-heading">Add a deploy key</h2>
<form method="post" action="${keysUrl(access)}" class="stacked" id="add-deploy-key">
  ${csrfField(context)}
  <label for="deploy-key-title">Title</label>
  <input type="text" id="deploy-key-title" name="title" required maxlength="255" value="${formText(form, 'title')}">
  <label for="deploy-key-key">Key</label>
  <textarea id="deploy-key-key" name="key" required placeholder="Begins with 'ssh-ed25519', 'ecdsa-sha2-nistp256' or 'ssh-rsa'">${formText(form, 'key')}</textarea>
  <label class="checkbox"><input type="checkbox" name="can_push" value="1"${formText(form, 'can_push') === '1' ? ' checked' : ''}> Grant write permissions to this key</label>
  <label for="deploy-key-expires">Expiration date (optional)</label>
  <input type="date" id="deploy-key-expires" name="expires_at" value="${formText(form, 'expires_at')}">
  <p class="actions"><button type="submit">Add key</button></p>
</form>
</section>
<section aria-labelledby="enabled-deploy-keys-heading">
<h2 id="enabled-deploy-keys-heading">Enabled deploy keys (${enabled.length})</h2>
${enabled.length ? html`<ul class="plain">${enabled.map((key) => enabledKey(context, access, key))}</ul>` : html`<p class="empty">No deploy key is enabled on this project.</p>`}
</section>
<section aria-labelledby="available-deploy-keys-heading">
<h2 id="available-deploy-keys-heading">Keys you may enable (${available.length})</h2>
${available.length ? html`<ul class="plain">${available.map((key) => availableKey(context, access, key))}</ul>` : html`<p class="empty">There is no other deploy key you may enable here.</p>`}
</section>`;
  return page({ title: `Deploy keys · ${access.project.name}`, heading: html`<h1>Deploy keys</h1>`, status: extra.errors ? 400 : 200, body, sidebar: projectSidebar(access, 'deploy_keys') });
}

export async function addDeployKeyFromForm(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const form = context.form;
  const expiresAt = expiryOf(formText(form, 'expires_at'));
  if (expiresAt === undefined) return renderDeployKeys(context, access, { errors: { expires_at: ['is invalid'] }, form });
  try {
    await createProjectDeployKey(context.deps, context.user, Number(access.project.id), {
      title: formText(form, 'title'), key: formText(form, 'key').slice(0, 100_000), expiresAt, usageType: 'auth', canPush: formText(form, 'can_push') === '1',
    });
  } catch (error) {
    if (error instanceof ValidationError) return renderDeployKeys(context, access, { errors: error.fields, form });
    throw error;
  }
  return redirect(keysUrl(access), 'The deploy key was added.');
}

const DONE: Record<string, string> = { enable: 'The deploy key was enabled.', disable: 'The deploy key was removed from this project.', can_push: 'The deploy key’s write permission was changed.' };

export async function deployKeyActionFromForm(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const keyId = formId(context.match.key_id);
  const action = context.match.action;
  const projectId = Number(access.project.id);
  try {
    if (keyId === null) throw new NotFoundError('Deploy Key');
    if (action === 'enable') await enableDeployKey(context.deps, context.user, projectId, keyId);
    else if (action === 'disable') await removeDeployKeyFromProject(context.deps, projectId, keyId);
    else await updateDeployKey(context.deps, context.user, projectId, keyId, { canPush: formText(context.form, 'can_push') === '1' });
  } catch (error) {
    if (error instanceof NotFoundError) return redirect(keysUrl(access), 'Deploy key not found.');
    throw error;
  }
  return redirect(keysUrl(access), DONE[action]);
}
