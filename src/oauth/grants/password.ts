// grant_type=password (RFC 6749 §4.3; docs/decisions.md "password grant"): compatibility only, so it is
// confined: rate-limited per IP (docs/security.md protected paths, 10/min), refused with the same
// `invalid_grant` for unknown users, wrong passwords, two-factor users, locked and blocked users (no
// enumeration), default scope `api`, and no refresh token (specification, Access token response).
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { protectedPathHit, checkPassword, findUserByLogin } from '../../accounts/api.js';
import { optionalClient } from '../client-auth.js';
import { invalidGrant, invalidScope, missingParameter, OAuthError } from '../errors.js';
import { ALL_SCOPES, resolveScopes, splitScopes } from '../scopes.js';
import { issueTokenAlone, tokenResponse } from '../issue-token.js';

export async function passwordGrant(deps: Deps, request: FastifyRequest, params: Record<string, string>) {
  const limited = await protectedPathHit(deps, 'oauth_password', request.ip);
  if (!limited.allowed) {
    throw new OAuthError('invalid_request', 'Too many requests. Retry later.', 429, { 'retry-after': String(limited.retryAfter) });
  }
  const client = await optionalClient(deps, request, params);
  if (!params.username) throw missingParameter('username');
  if (!params.password) throw missingParameter('password');
  const scopes = resolveScopes(params.scope, client ? splitScopes(client.scopes) : ALL_SCOPES);
  if (!scopes) throw invalidScope();
  // Two-factor users never reach the password check and no failed attempt is counted (GitLab,
  // GitLab's OAuth documentation); the answer is the same as for a wrong password.
  const candidate = await findUserByLogin(deps, params.username);
  if (candidate && candidate.otp_required === 1) throw invalidGrant();
  const check = await checkPassword(deps, params.username, params.password);
  if (!check.ok) {
    request.log.info({ event: 'oauth_password_grant_failed', reason: check.reason }, 'password grant refused');
    throw invalidGrant();
  }
  const issued = await issueTokenAlone(deps, { applicationId: client ? Number(client.id) : null, userId: Number(check.user.id), scopes, withRefresh: false });
  return tokenResponse(issued);
}
