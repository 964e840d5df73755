// RFC 8414 authorization server metadata, OpenID Connect discovery and the JWKS
// (GitLab's OAuth documentation). Advertises only what Kiln does: S256, Basic and body client auth.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { ALL_SCOPES } from './scopes.js';
import { jwks } from './id-token.js';
import { GROUP_ROLE_CLAIM_NAMES } from './claims.js';

export function serverMetadata(deps: Deps) {
  const base = deps.config.baseUrl;
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    revocation_endpoint: `${base}/oauth/revoke`,
    introspection_endpoint: `${base}/oauth/introspect`,
    userinfo_endpoint: `${base}/oauth/userinfo`,
    jwks_uri: `${base}/oauth/discovery/keys`,
    scopes_supported: ALL_SCOPES,
    response_types_supported: deps.config.allowImplicitGrant ? ['code', 'token'] : ['code'],
    response_modes_supported: deps.config.allowImplicitGrant ? ['query', 'fragment'] : ['query'],
    grant_types_supported: ['authorization_code', 'password', 'refresh_token', ...(deps.config.allowImplicitGrant ? ['implicit'] : [])],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claim_types_supported: ['normal'],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'name', 'nickname', 'preferred_username', 'email', 'email_verified', 'website', 'profile', 'picture', 'groups', 'groups_direct', ...GROUP_ROLE_CLAIM_NAMES],
  };
}

export function discoveryRoutes(app: FastifyInstance, deps: Deps): void {
  // Public documents: anyone, anonymous too.
  const open = { config: { ability: { credential: 'none' as const } } };
  app.get('/.well-known/oauth-authorization-server', open, async (_request, reply) => reply.header('cache-control', 'max-age=3600, public').send(serverMetadata(deps)));
  app.get('/.well-known/openid-configuration', open, async (_request, reply) => reply.header('cache-control', 'max-age=3600, public').send(serverMetadata(deps)));
  app.get('/oauth/discovery/keys', open, async (_request, reply) => reply.header('cache-control', 'max-age=86400, public').send(jwks(deps)));
}
