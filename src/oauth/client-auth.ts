// Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3.1):
// HTTP Basic with both parts form-URL-decoded, or client_id/client_secret in the body, never both.
// Non-confidential applications authenticate with their id alone (GitLab's OAuth documentation).
import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { OauthApplicationsTable } from '../platform/db/tables/oauth.js';
import { safeEqual, sha256Hex } from '../platform/crypto.js';
import { invalidClient, invalidRequest } from './errors.js';

export type ApplicationRow = Selectable<OauthApplicationsTable>;

export interface ClientCredentials {
  clientId: string;
  clientSecret: string | null;
  method: 'basic' | 'body';
}

function formDecode(part: string): string {
  return decodeURIComponent(part.replace(/\+/g, ' '));
}

/** The credentials a request carries, or null for none. Throws `invalid_request`/`invalid_client` on malformed ones. */
export function readClientCredentials(request: FastifyRequest, params: Record<string, unknown>): ClientCredentials | null {
  const header = request.headers.authorization;
  const bodyId = typeof params.client_id === 'string' && params.client_id !== '' ? params.client_id : null;
  const bodySecret = typeof params.client_secret === 'string' && params.client_secret !== '' ? params.client_secret : null;
  if (typeof header === 'string' && /^Basic\s/i.test(header)) {
    const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    let id: string;
    let secret: string;
    try {
      id = formDecode(colon === -1 ? decoded : decoded.slice(0, colon));
      secret = formDecode(colon === -1 ? '' : decoded.slice(colon + 1));
    } catch {
      throw invalidClient(true);
    }
    // x/oauth2 sends `Basic Og==` (empty id and secret) for the password grant: no credentials at all.
    if (id === '' && secret === '') return bodyId || bodySecret ? bodyCredentials(bodyId, bodySecret) : null;
    if (bodySecret !== null || (bodyId !== null && bodyId !== id)) {
      throw invalidRequest('The request uses more than one client authentication method.');
    }
    return { clientId: id, clientSecret: secret === '' ? null : secret, method: 'basic' };
  }
  return bodyCredentials(bodyId, bodySecret);
}

function bodyCredentials(id: string | null, secret: string | null): ClientCredentials | null {
  if (id === null) {
    if (secret !== null) throw invalidClient(false);
    return null;
  }
  return { clientId: id, clientSecret: secret, method: 'body' };
}

export async function findApplicationByUid(deps: Deps, uid: string): Promise<ApplicationRow | undefined> {
  return deps.db.selectFrom('oauth_applications').selectAll().where('uid', '=', uid).executeTakeFirst();
}

/** The application the credentials prove, or `invalid_client` (401). */
export async function authenticateClient(deps: Deps, credentials: ClientCredentials): Promise<ApplicationRow> {
  const application = await findApplicationByUid(deps, credentials.clientId);
  const usedBasic = credentials.method === 'basic';
  if (!application) throw invalidClient(usedBasic);
  if (credentials.clientSecret === null) {
    if (application.confidential === 1) throw invalidClient(usedBasic);
    return application;
  }
  if (!safeEqual(sha256Hex(credentials.clientSecret), application.secret_digest)) throw invalidClient(usedBasic);
  return application;
}

/** Credentials when sent (checked), else null. */
export async function optionalClient(deps: Deps, request: FastifyRequest, params: Record<string, unknown>): Promise<ApplicationRow | null> {
  const credentials = readClientCredentials(request, params);
  return credentials ? authenticateClient(deps, credentials) : null;
}

/** Credentials are required: none at all is `invalid_client` too. */
export async function requiredClient(deps: Deps, request: FastifyRequest, params: Record<string, unknown>): Promise<ApplicationRow> {
  const credentials = readClientCredentials(request, params);
  if (!credentials) throw invalidClient(false);
  return authenticateClient(deps, credentials);
}
