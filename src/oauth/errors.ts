// OAuth errors are small values carrying status, code and description (node-oidc-provider's
// lib/helpers/errors.js style); one function renders them (RFC 6749 §5.2).
import type { FastifyReply } from 'fastify';

export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${error}: ${description}`);
  }
}

// Descriptions in Doorkeeper 5.5's English (GitLab's OAuth documentation), which clients show users.
export const DESCRIPTIONS = {
  invalid_request: 'The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.',
  invalid_client: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  invalid_grant:
    'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  invalid_scope: 'The requested scope is invalid, unknown, or malformed.',
  unauthorized_client: 'The client is not authorized to perform this request using this method.',
  access_denied: 'The resource owner or authorization server denied the request.',
  unsupported_response_type: 'The authorization server does not support this response type.',
  unsupported_token_type: 'The authorization server does not support the revocation of the presented token type.',
  invalid_token: 'The access token is invalid',
} as const;

export const missingParameter = (name: string) => new OAuthError('invalid_request', `Missing required parameter: ${name}.`);
export const invalidRequest = (description: string = DESCRIPTIONS.invalid_request) => new OAuthError('invalid_request', description);
export const invalidGrant = () => new OAuthError('invalid_grant', DESCRIPTIONS.invalid_grant);
export const invalidScope = () => new OAuthError('invalid_scope', DESCRIPTIONS.invalid_scope);
export const unauthorizedClient = () => new OAuthError('unauthorized_client', DESCRIPTIONS.unauthorized_client);

/** 401; `WWW-Authenticate: Basic` when the client tried HTTP Basic (RFC 6749 §5.2). */
export function invalidClient(usedBasic: boolean): OAuthError {
  return new OAuthError('invalid_client', DESCRIPTIONS.invalid_client, 401, usedBasic ? { 'www-authenticate': 'Basic realm="Kiln"' } : {});
}

/** RFC 6750 §3: the 401 of token info and userinfo for an unusable token. */
export function invalidTokenError(): OAuthError {
  const description = DESCRIPTIONS.invalid_token;
  return new OAuthError('invalid_token', description, 401, {
    'www-authenticate': `Bearer realm="Kiln", error="invalid_token", error_description="${description}"`,
  });
}

/** Token-endpoint responses are never cached, success or error (RFC 6749 §5.1, Doorkeeper). */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

export function sendOAuthError(reply: FastifyReply, error: OAuthError, extra: Record<string, unknown> = {}): FastifyReply {
  noStore(reply).code(error.status).headers(error.headers);
  return reply.send({ error: error.error, error_description: error.description, ...extra });
}
