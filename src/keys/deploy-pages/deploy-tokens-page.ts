// Deploy tokens of a project (`/<project>/-/deploy_tokens`, Maintainers) and of a group
// (`/groups/<group>/-/deploy_tokens`, Owners), as GitLab's Settings › Repository › Deploy tokens: the
// active tokens with their scopes, a form to create one (name, expiry, user name, scopes) whose token
// is shown once on the page that answers it, and a button to revoke each. Creation is the API's
// service; the token is never put in a redirect or the session.
import type { GroupAccess, ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { groupSidebar, projectSidebar } from '../../platform/web/project-nav.js';
import { expiryOf } from '../validate-key.js';
import { deployTokensOfQuery, onlyActive, type DeployTokenOwner } from '../deploy-tokens-finder.js';
import { createDeployToken, DEPLOY_TOKEN_SCOPES, knownScopes } from '../create-deploy-token.js';
import { revokeDeployToken } from '../revoke-deploy-token.js';
import type { DeployTokenRow } from '../entities.js';
import { day, formId, formText, refusals, type Form } from './form.js';

export const PROJECT_DEPLOY_TOKENS_PATTERN = /^(?<path>.+?)\/-\/deploy_tokens$/;
export const PROJECT_REVOKE_TOKEN_PATTERN = /^(?<path>.+?)\/-\/deploy_tokens\/(?<token_id>[^/]+)\/revoke$/;
export const GROUP_DEPLOY_TOKENS_PATTERN = /^groups\/(?<path>.+?)\/-\/deploy_tokens$/;
export const GROUP_REVOKE_TOKEN_PATTERN = /^groups\/(?<path>.+?)\/-\/deploy_tokens\/(?<token_id>[^/]+)\/revoke$/;

const SCOPE_HELP: Record<(typeof DEPLOY_TOKEN_SCOPES)[number], string> = {
  read_repository: 'clone the repository',
  write_repository: 'push to the repository',
  read_registry: 'pull container images (no registry in Kiln yet)',
  write_registry: 'push container images (no registry in Kiln yet)',
  read_package_registry: 'pull packages (no package registry in Kiln yet)',
  write_package_registry: 'publish packages (no package registry in Kiln yet)',
};

/** Where the tokens belong: a project or a group, its URL and sidebar. */
export interface TokenOwner {
  owner: DeployTokenOwner;
  url: string;
  name: string;
  sidebar: Html;
}

export const projectTokenOwner = (access: ProjectAccess): TokenOwner => ({
  owner: { kind: 'project', id: Number(access.project.id) }, url: `/${access.project.full_path}/-/deploy_tokens`, name: access.project.name, sidebar: projectSidebar(access, 'deploy_tokens'),
});

export const groupTokenOwner = (access: GroupAccess): TokenOwner => ({
  owner: { kind: 'group', id: Number(access.group.id) }, url: `/groups/${access.group.full_path}/-/deploy_tokens`, name: access.group.name, sidebar: groupSidebar(access, 'deploy_tokens'),
});

function tokenRow(context: PageContext, target: TokenOwner, token: DeployTokenRow): Html {
  return html`<tr data-deploy-token="${token.id}"><td>${token.name}</td><td><code class="wrap-anywhere">${token.username}</code></td><td>${day(token.created_at)}</td><td>${day(token.expires_at) ?? 'Never'}</td><td>${token.scopes.split(' ').join(', ')}</td>
<td><form method="post" action="${target.url}/${token.id}/revoke" class="inline" data-confirm="Revoke ${token.name}?">${csrfField(context)}<button type="submit" class="small danger" aria-label="Revoke ${token.name}">Revoke</button></form></td></tr>`;
}

function createdToken(created: { username: string; token: string }): Html {
  return html`<section class="flash notice" role="status" aria-labelledby="new-deploy-token-heading">
<h2 id="new-deploy-token-heading">Your new deploy token</h2>
<p>Copy the token now: it is not shown again.</p>
<label for="new-deploy-token-username">Username</label><input type="text" id="new-deploy-token-username" readonly value="${created.username}">
<label for="new-deploy-token">Token</label><input type="text" id="new-deploy-token" readonly value="${created.token}">
</section>`;
}

interface Extra {
  errors?: Record<string, string[]>;
  form?: Form;
  created?: { username: string; token: string };
}

export async function renderDeployTokens(context: PageContext, target: TokenOwner, extra: Extra = {}): Promise<PageOutcome> {
  const tokens = await onlyActive(deployTokensOfQuery(context.deps, target.owner), context.deps.clock.now()).limit(200).execute();
  const form = extra.form ?? {};
  const chosen = new Set([form.scopes ?? []].flat());
  const body = html`
<p class="muted">Deploy tokens give access to the ${target.owner.kind === 'group' ? "group's projects" : 'repository'} over HTTPS without a user's password: give one to a CI machine or a server, with only the scopes it needs.</p>
${extra.created ? createdToken(extra.created) : ''}
${refusals(extra.errors)}
<section aria-labelledby="new-deploy-token-form-heading">
<h2 id="new-deploy-token-form-heading">New deploy token</h2>
<form method="post" action="${target.url}" class="stacked" id="create-deploy-token">
  ${csrfField(context)}
  <label for="deploy-token-name">Name</label>
  <input type="text" id="deploy-token-name" name="name" required maxlength="255" value="${formText(form, 'name')}">
  <label for="deploy-token-expires">Expiration date (optional)</label>
  <input type="date" id="deploy-token-expires" name="expires_at" value="${formText(form, 'expires_at')}">
  <label for="deploy-token-username">Username (optional)</label>
  <input type="text" id="deploy-token-username" name="username" maxlength="255" placeholder="gitlab+deploy-token-{n}" value="${formText(form, 'username')}">
  <fieldset><legend>Scopes</legend>
  ${DEPLOY_TOKEN_SCOPES.map((scope) => html`<label class="checkbox"><input type="checkbox" name="scopes[]" value="${scope}"${chosen.has(scope) ? ' checked' : ''}> <code>${scope}</code> <span class="muted">${SCOPE_HELP[scope]}</span></label>`)}
  </fieldset>
  <p class="actions"><button type="submit">Create deploy token</button></p>
</form>
</section>
<section aria-labelledby="active-deploy-tokens-heading">
<h2 id="active-deploy-tokens-heading">Active deploy tokens (${tokens.length})</h2>
${tokens.length
    ? html`<div class="code-scroll"><table id="deploy-tokens"><caption class="visually-hidden">Active deploy tokens</caption><thead><tr><th scope="col">Name</th><th scope="col">Username</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Scopes</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>
${tokens.map((token) => tokenRow(context, target, token))}
</tbody></table></div>`
    : html`<p class="empty">This ${target.owner.kind} has no active deploy tokens.</p>`}
</section>`;
  return page({ title: `Deploy tokens · ${target.name}`, heading: html`<h1>Deploy tokens</h1>`, status: extra.errors ? 400 : 200, body, sidebar: target.sidebar });
}

export async function createDeployTokenFromForm(context: PageContext, target: TokenOwner): Promise<PageOutcome> {
  const form = context.form;
  const scopes = [form.scopes ?? []].flat();
  const expiresAt = expiryOf(formText(form, 'expires_at'));
  if (expiresAt === undefined) return renderDeployTokens(context, target, { errors: { expires_at: ['is invalid'] }, form });
  if (!knownScopes(scopes)) return renderDeployTokens(context, target, { errors: { scopes: ['does not have a valid value'] }, form });
  try {
    const { row, token } = await createDeployToken(context.deps, context.user.id, target.owner, { name: formText(form, 'name'), scopes, username: formText(form, 'username'), expiresAt });
    return await renderDeployTokens(context, target, { created: { username: row.username, token } });
  } catch (error) {
    if (error instanceof ValidationError) return renderDeployTokens(context, target, { errors: error.fields, form });
    throw error;
  }
}

export async function revokeDeployTokenFromForm(context: PageContext, target: TokenOwner): Promise<PageOutcome> {
  const tokenId = formId(context.match.token_id);
  try {
    if (tokenId === null) throw new NotFoundError('Deploy Token');
    await revokeDeployToken(context.deps, target.owner, tokenId);
  } catch (error) {
    if (error instanceof NotFoundError) return redirect(target.url, 'Deploy token not found.');
    throw error;
  }
  return redirect(target.url, 'The deploy token was revoked.');
}
