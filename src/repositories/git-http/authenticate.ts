// HTTP Basic for git (docs/architecture.md, Git): any user name with a personal access token or an OAuth
// token as the password (`oauth2:<token>` is the usual form), a deploy token with its user name, or the account password of a user
// without two-factor authentication, as GitLab's Gitlab::Auth.find_for_git_client allows.
import type { Deps } from '../../platform/deps.js';
import type { TokenResolver } from '../../platform/auth/principal.js';
import { checkPassword, findUserRow, toAuthUser } from '../../accounts/api.js';
import { findKeyById, resolveDeployToken } from '../../keys/api.js';
import { deployKeyOfUsername, looksLikeLfsToken, verifyLfsToken } from './lfs-token.js';
import type { GitActor } from './git-access.js';
import { repositoryHooks } from '../hooks.js';

export interface GitCredentials {
  username: string;
  password: string;
}

/**
 * `ok` with an anonymous actor when no credentials came; `blocked`: the password of a blocked user;
 * `token_required`: the right account password of a user with two-factor authentication.
 */
export type GitAuth = { status: 'ok'; actor: GitActor } | { status: 'denied' } | { status: 'token_required' } | { status: 'blocked' };

export function parseBasic(header: string | undefined): GitCredentials | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

async function byToken(resolvers: TokenResolver[], token: string) {
  for (const resolve of resolvers) {
    const result = await resolve(token);
    if (result) return result;
  }
  return null;
}

export async function authenticateGit(deps: Deps, credentials: GitCredentials | null): Promise<GitAuth> {
  if (!credentials) return { status: 'ok', actor: { kind: 'anonymous' } };
  if (credentials.password === '') return { status: 'denied' };
  if (looksLikeLfsToken(credentials.password)) return byLfsToken(deps, credentials);
  if (credentials.username === 'gitlab-ci-token') return byJobToken(deps, credentials.password);
  const token = (await byToken(deps.auth.oauth, credentials.password)) ?? (await byToken(deps.auth.personalAccessToken, credentials.password));
  if (token) {
    if (token.status !== 'ok') return { status: 'denied' };
    const { user, scopes } = token.principal;
    return { status: 'ok', actor: { kind: 'user', user, scopes } };
  }
  // A deploy token goes with its own user name (gitlab+deploy-token-N unless its creator chose one).
  const deployToken = await resolveDeployToken(deps, credentials.username, credentials.password);
  if (deployToken) {
    if (deployToken.status !== 'ok') return { status: 'denied' };
    const { tokenId, projectId, groupPath, scopes, username } = deployToken;
    return { status: 'ok', actor: { kind: 'deploy_token', tokenId, projectId, groupPath, scopes, username } };
  }
  // The sign-in form's check (login or e-mail, constant timing) without its lock-out: a failure here
  // counts against the client's address instead (throttle.ts), so spraying cannot lock victims out.
  const check = await checkPassword(deps, credentials.username, credentials.password, { countFailures: false });
  if (!check.ok) return { status: check.reason === 'blocked' || check.reason === 'pending' ? 'blocked' : 'denied' };
  // Users with 2FA must use a token (spec Authentication 8). GitLab's user_with_password_for_git raises
  // MissingPersonalAccessTokenError here, before its rate limiter counts the attempt: not a failure.
  if (check.user.otp_required === 1) return { status: 'token_required' };
  return { status: 'ok', actor: { kind: 'user', user: toAuthUser(check.user), scopes: null } };
}

/**
 * A running CI job's token: the job's user, reading only (GitLab's build_download_code: what the job's
 * user may read; a job token never pushes).
 */
async function byJobToken(deps: Deps, token: string): Promise<GitAuth> {
  const userId = (await repositoryHooks(deps).jobTokenUser?.(token)) ?? null;
  const user = userId === null ? undefined : await findUserRow(deps, userId);
  if (!user || user.state !== 'active') return { status: 'denied' };
  const jobProjectId = (await repositoryHooks(deps).jobTokenProject?.(token)) ?? null;
  if (jobProjectId === null) return { status: 'denied' };
  return { status: 'ok', actor: { kind: 'user', user: toAuthUser(user), scopes: ['read_repository'], jobProjectId } };
}

/** An LFS token (lfs/lfs-token.ts) with the user name it was issued to: a user's, or a deploy key's. */
async function byLfsToken(deps: Deps, credentials: GitCredentials): Promise<GitAuth> {
  const keyId = deployKeyOfUsername(credentials.username);
  if (keyId !== null) {
    const key = await findKeyById(deps, keyId);
    if (!key || key.type !== 'DeployKey' || !verifyLfsToken(deps, { kind: 'deploy_key', id: keyId }, credentials.password)) return { status: 'denied' };
    return { status: 'ok', actor: { kind: 'deploy_key', keyId, userId: key.user_id === null ? null : Number(key.user_id) } };
  }
  const user = await findUserRow(deps, credentials.username);
  if (!user || user.username.toLowerCase() !== credentials.username.toLowerCase() || !verifyLfsToken(deps, { kind: 'user', id: Number(user.id) }, credentials.password)) return { status: 'denied' };
  return { status: 'ok', actor: { kind: 'user', user: toAuthUser(user), scopes: null } };
}
