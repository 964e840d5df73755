// The authorization request as an ordered list of checks (RFC 6749 §4.1.1, §4.2.1; node-oidc-provider's
// lib/actions/authorization style). Checks on the client and redirect URI fail with an error page and
// never redirect (RFC 6749 §4.1.2.1, RFC 9700 §4.11.2); every later check redirects its error back.
import type { Deps } from '../../platform/deps.js';
import type { ApplicationRow } from '../client-auth.js';
import { findApplicationByUid } from '../client-auth.js';
import { DESCRIPTIONS } from '../errors.js';
import { checkChallenge } from '../pkce.js';
import { matchesRegistered, OOB_URI, splitRedirectUris } from '../redirect-uri.js';
import { resolveScopes, splitScopes } from '../scopes.js';

export interface AuthorizeRequest {
  application: ApplicationRow;
  redirectUri: string;
  responseType: 'code' | 'token';
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | null;
  nonce: string | null;
}

/** Where errors and results go: the query for `code`, the fragment for `token` (RFC 6749 §4.2.2). */
export interface Destination {
  redirectUri: string;
  mode: 'query' | 'fragment';
  state: string | undefined;
}

export type Validation =
  | { kind: 'ok'; request: AuthorizeRequest }
  /** Shown to the user; never a redirect. */
  | { kind: 'page'; error: string; description: string }
  | { kind: 'redirect'; destination: Destination; error: string; description: string };

type Params = Record<string, unknown>;

function single(params: Params, name: string): string | undefined | null {
  const value = params[name];
  if (Array.isArray(value)) return null; // repeated: RFC 6749 §3.1 "MUST NOT be included more than once"
  if (typeof value !== 'string' || value === '') return undefined;
  return value;
}

const PASSED = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'nonce'] as const;

export async function validateAuthorizeRequest(deps: Deps, params: Params): Promise<Validation> {
  const values: Record<string, string | undefined> = {};
  const repeated: string[] = [];
  for (const name of PASSED) {
    const value = single(params, name);
    if (value === null) repeated.push(name);
    values[name] = value ?? undefined;
  }

  // Rule: a client_id is present, single and known.
  if (repeated.includes('client_id') || !values.client_id) return { kind: 'page', error: 'invalid_request', description: 'Missing required parameter: client_id.' };
  const application = await findApplicationByUid(deps, values.client_id);
  if (!application) return { kind: 'page', error: 'invalid_client', description: DESCRIPTIONS.invalid_client };

  // Rule: the redirect URI is present and exactly one of the registered ones (RFC 9700 §2.1).
  if (repeated.includes('redirect_uri') || !values.redirect_uri || !matchesRegistered(values.redirect_uri, splitRedirectUris(application.redirect_uri))) {
    return { kind: 'page', error: 'invalid_redirect_uri', description: 'The redirect URI included is not valid.' };
  }
  const redirectUri = values.redirect_uri;
  const responseType = values.response_type;
  const destination: Destination = { redirectUri, mode: responseType === 'token' ? 'fragment' : 'query', state: repeated.includes('state') ? undefined : values.state };
  // The out-of-band URI is no place to send a browser: its errors are shown (Doorkeeper does the same).
  const fail = (error: string, description: string): Validation =>
    redirectUri === OOB_URI ? { kind: 'page', error, description } : { kind: 'redirect', destination, error, description };

  // Rule: no parameter is repeated.
  if (repeated.length) return fail('invalid_request', `Parameter ${repeated[0]} is included more than once.`);
  // Rule: the response type is code, or token while the implicit grant is allowed for this client.
  if (!responseType) return fail('invalid_request', 'Missing required parameter: response_type.');
  if (responseType !== 'code' && responseType !== 'token') return fail('unsupported_response_type', DESCRIPTIONS.unsupported_response_type);
  if (responseType === 'token' && (!deps.config.allowImplicitGrant || application.confidential === 1)) {
    // docs/decisions.md: implicit only for non-confidential applications and while the instance allows it.
    return fail('unauthorized_client', 'The implicit grant is not available to this application.');
  }
  // Rule: scopes are known to the application (defaults to `api`).
  const scopes = resolveScopes(values.scope, splitScopes(application.scopes));
  if (!scopes) return fail('invalid_scope', DESCRIPTIONS.invalid_scope);
  // Rule: PKCE is S256 only, and required for public clients using the code flow.
  let codeChallenge: string | null = null;
  if (responseType === 'code') {
    const pkce = checkChallenge(values.code_challenge, values.code_challenge_method, application.confidential === 0);
    if (!pkce.ok) return fail('invalid_request', pkce.description);
    codeChallenge = pkce.challenge;
  }
  return {
    kind: 'ok',
    request: { application, redirectUri, responseType, scopes, state: values.state, codeChallenge, nonce: values.nonce ?? null },
  };
}

/** Append result or error parameters to the redirect URI, in its query or fragment. */
export function redirectWith(destination: Destination, values: Record<string, string | number | undefined>): string {
  const all = Object.entries({ ...values, state: destination.state }) as Array<[string, string | number | undefined]>;
  const entries = all.filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  const encoded = new URLSearchParams(entries.map(([key, value]) => [key, String(value)])).toString();
  if (destination.mode === 'fragment') return `${destination.redirectUri}#${encoded}`;
  return `${destination.redirectUri}${destination.redirectUri.includes('?') ? '&' : '?'}${encoded}`;
}

export function destinationOf(request: AuthorizeRequest): Destination {
  return { redirectUri: request.redirectUri, mode: request.responseType === 'token' ? 'fragment' : 'query', state: request.state };
}
