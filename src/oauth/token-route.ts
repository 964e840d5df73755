// POST /oauth/token (RFC 6749 §3.2): form-encoded (JSON accepted too), one file per grant, every
// response `Cache-Control: no-store` + `Pragma: no-cache`, exactly 200 on success (oauth4webapi and
// openid-client refuse 201, docs/clients.md), errors as {error, error_description} with 400 or 401.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { DESCRIPTIONS, OAuthError, invalidRequest, missingParameter, noStore, sendOAuthError } from './errors.js';
import { authorizationCodeGrant } from './grants/authorization-code.js';
import { refreshTokenGrant } from './grants/refresh-token.js';
import { passwordGrant } from './grants/password.js';
import { allowCors, corsHeader } from './cors.js';

type GrantHandler = (deps: Deps, request: FastifyRequest, params: Record<string, string>) => Promise<Record<string, unknown>>;

const GRANTS: Record<string, GrantHandler> = {
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
  password: passwordGrant,
};

/**
 * The body's parameters as strings. Credentials are never read from the query string (RFC 6749
 * §2.3.1); a parameter sent twice is `invalid_request` (§3.2) and an empty value counts as absent.
 */
export function bodyParams(request: FastifyRequest): Record<string, string> {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidRequest();
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (Array.isArray(value)) throw invalidRequest(`Parameter ${key} is included more than once.`);
    if (value === null || value === undefined || value === '') continue;
    if (typeof value === 'object') throw invalidRequest(`Parameter ${key} is malformed.`);
    params[key] = String(value);
  }
  return params;
}

export function tokenRoutes(app: FastifyInstance, deps: Deps): void {
  allowCors(app, '/oauth/token', ['POST']);
  app.post('/oauth/token', { config: { ability: { credential: 'oauth' } } }, async (request, reply) => {
    corsHeader(reply);
    try {
      if (request.body === undefined && request.headers['content-type']) throw invalidRequest('The request body must be application/x-www-form-urlencoded.');
      const params = bodyParams(request);
      if (!params.grant_type) throw missingParameter('grant_type');
      const grant = Object.hasOwn(GRANTS, params.grant_type) ? GRANTS[params.grant_type] : undefined;
      if (!grant) throw new OAuthError('unsupported_grant_type', DESCRIPTIONS.unsupported_grant_type);
      const body = await grant(deps, request, params);
      return noStore(reply).code(200).send(body);
    } catch (error) {
      if (error instanceof OAuthError) return sendOAuthError(reply, error);
      throw error;
    }
  });
}
