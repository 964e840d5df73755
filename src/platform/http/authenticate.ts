// Token resolution in GitLab's order (GitLab's REST API documentation): an OAuth token from `access_token`, a
// Bearer header or `bearer_token`; if that string is no OAuth token, a personal access token from
// `private_token`, `PRIVATE-TOKEN` or the same string. Unknown strings are 401.
import type { FastifyRequest } from 'fastify';
import { forbidden, insufficientScope, invalidToken, unauthorized, ApiError } from './api-error.js';
import type { Principal, TokenLookup, TokenResolver } from '../auth/principal.js';
import type { AuthRegistry } from '../auth/registry.js';
import type { PrefetchedProject } from '../auth/subjects.js';

function firstString(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value !== '') return value;
  return undefined;
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

async function lookup(resolvers: TokenResolver[], token: string): Promise<TokenLookup> {
  for (const resolve of resolvers) {
    const result = await resolve(token);
    if (result) return result;
  }
  return null;
}

function raiseFor(result: TokenLookup): Principal | null {
  if (!result) return null;
  if (result.status === 'expired') throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
  if (result.status === 'revoked') throw invalidToken('Token was revoked. You have to re-authorize from the user.');
  if (result.status === 'refused') throw forbidden(result.reason);
  return result.principal;
}

export interface AuthenticateOptions {
  /** The route takes CI job tokens (`JOB-TOKEN` or `job_token`). */
  jobToken?: boolean;
}

/** Resolve the caller; `null` when the request carries no credentials at all. Throws on bad ones. */
export async function authenticate(registry: AuthRegistry, request: FastifyRequest, params: Record<string, unknown>, options: AuthenticateOptions = {}): Promise<Principal | null> {
  const oauthToken = firstString(params.access_token, bearerOf(request), params.bearer_token);
  if (oauthToken) {
    const principal = raiseFor(await lookup(registry.oauth, oauthToken));
    if (principal) return principal;
  }
  const patToken = firstString(params.private_token, request.headers['private-token'], oauthToken);
  if (patToken) {
    const principal = raiseFor(await lookup(registry.personalAccessToken, patToken));
    if (principal) return principal;
    throw unauthorized();
  }
  const jobToken = options.jobToken ? firstString(params.job_token, request.headers['job-token']) : undefined;
  if (jobToken) {
    // A job that ended (or never was) is 401, as GitLab's job token authentication answers.
    const principal = registry.jobToken ? raiseFor(await registry.jobToken(jobToken)) : null;
    if (principal) return principal;
    throw unauthorized();
  }
  return null;
}

/**
 * `authenticate` for a route that names a project (`idOrPath`): a personal access token is read
 * together with that project in one statement when the accounts feature offers it, and the project
 * comes back for the route's own look-up. Same credentials, same order, same errors as `authenticate`.
 */
export async function authenticateForProject(
  registry: AuthRegistry,
  request: FastifyRequest,
  params: Record<string, unknown>,
  idOrPath: string,
  options: AuthenticateOptions = {},
): Promise<{ principal: Principal | null; project: PrefetchedProject | null }> {
  const oauthToken = firstString(params.access_token, bearerOf(request), params.bearer_token);
  const patToken = oauthToken ? undefined : firstString(params.private_token, request.headers['private-token']);
  if (!patToken || !registry.personalAccessTokenWithProject) return { principal: await authenticate(registry, request, params, options), project: null };
  const { lookup: found, project } = await registry.personalAccessTokenWithProject(patToken, idOrPath);
  // Not a token of that look-up: the other resolvers may know it (or answer 401).
  if (!found) return { principal: await authenticate(registry, request, params, options), project: null };
  return { principal: raiseFor(found), project };
}

export interface ScopeRule {
  /** Scopes this endpoint accepts besides the global `api` (and `read_api` for reads), e.g. `read_user`. */
  extraScopes?: string[];
}

/** Which scopes admit a request; listed endpoint scopes first, then the globals, as GitLab's 403 body does. */
export function allowedScopes(rule: ScopeRule): string[] {
  return [...(rule.extraScopes ?? []), 'api', 'read_api'];
}

export function checkScopes(principal: Principal, method: string, rule: ScopeRule): void {
  if (principal.via === 'session') return;
  const reading = method === 'GET' || method === 'HEAD';
  const admitted = new Set(['api', ...(reading ? ['read_api', ...(rule.extraScopes ?? [])] : [])]);
  if (!principal.scopes.some((scope) => admitted.has(scope))) throw insufficientScope(allowedScopes(rule));
}

/** Sudo (GitLab's REST API documentation): an admin with a `sudo`-scoped token acts as another user. */
export async function applySudo(registry: AuthRegistry, principal: Principal | null, sudo: string | undefined): Promise<Principal | null> {
  if (sudo === undefined || sudo === '') return principal;
  if (!principal) throw unauthorized();
  if (!principal.user.admin) throw forbidden('Must be admin to use sudo');
  if (principal.via === 'session') throw forbidden('Must be authenticated using an OAuth or Personal Access Token to use sudo');
  if (!principal.scopes.includes('sudo')) throw insufficientScope(['sudo']);
  const target = registry.findUserForSudo ? await registry.findUserForSudo(sudo) : null;
  if (!target) throw new ApiError(404, { message: `404 User with ID or username '${sudo}' Not Found` });
  return { ...principal, user: target, sudoFrom: principal.user };
}

export function checkActive(principal: Principal): void {
  // A banned user is a blocked one to GitLab (User#blocked?), with the same answer.
  if (principal.user.state === 'blocked' || principal.user.state === 'banned') throw forbidden('Your account has been blocked.');
  // GitLab's UserAccessDeniedReason for a sign-up that awaits approval.
  if (principal.user.state === 'blocked_pending_approval') throw forbidden('Your account is pending approval from your administrator and hence blocked.');
  // GitLab's UserAccessDeniedReason for a deactivated account.
  if (principal.user.state === 'deactivated') throw forbidden('Your account has been deactivated by your administrator. Please log back in to reactivate your account.');
}
