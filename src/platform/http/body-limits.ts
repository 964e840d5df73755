// Byte limits for bodies Kiln parses (JSON, forms, multipart) from callers who present no credentials.
// Their bodies are a few short fields (a login and password, an OAuth code, a search), so they take far
// less than the 1 MiB an authenticated API caller may send (10 MiB on namespaced paths): a caller
// without an account cannot make Kiln read and parse large bodies anywhere. The sign-in and OAuth
// endpoints take the small limit whoever calls. Bodies Kiln does not parse are left to their routes:
// git's smart HTTP and LFS read their own streams, the alert endpoint checks its key before reading.
// A header that only looks like a credential raises the limit to the authenticated one, which the
// parsers handle in linear time (param-bag.ts, body-parsers.ts) — the limit bounds work, not access.
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteAbility } from '../auth/subjects.js';
import { readCookie } from './cookies.js';
import { ApiError } from './api-error.js';

export const UNAUTHENTICATED_BODY_LIMIT = 64 * 1024;

/** Sign-in (and its second step) and the OAuth protocol endpoints (token, revoke, authorize, introspection…). */
const UNAUTHENTICATED_PATHS = /^\/(?:users|oauth)\//;

/** The bodies Kiln's own parsers read (body-parsers.ts); any other type is the route's to read. */
const PARSED_TYPES = /^(?:application\/([\w.+-]+\+)?json|application\/x-www-form-urlencoded|multipart\/form-data)(?:\s*;.*)?$/i;

/** Git LFS batch, locks and transfer bodies (`info/lfs/`, `gitlab-lfs/`) belong to git's protocol, whoever sends them. */
const PROTOCOL_PATHS = /\.git\/(?:info\/lfs|gitlab-lfs)\//;

/** accounts/sessions.ts: a browser session cookie; `anon.` values are anonymous visitors' (anonymous-sessions.ts). */
const SESSION_COOKIE = '_kiln_session';
const TOKEN_PARAMS = /[?&](?:private_token|access_token|job_token|bearer_token)=/;

const tooLarge = () => new ApiError(413, { message: '413 Request Entity Too Large' });

export function isUnauthenticatedEndpoint(url: string, ability: RouteAbility | undefined): boolean {
  return UNAUTHENTICATED_PATHS.test(url) || (ability !== undefined && 'credential' in ability && ability.credential === 'oauth');
}

/** Whether the request carries something that may authenticate it (checked later, by the route kit). */
export function presentsCredentials(request: FastifyRequest): boolean {
  const headers = request.headers;
  if (headers.authorization || headers['private-token'] || headers['job-token']) return true;
  const session = readCookie(request, SESSION_COOKIE);
  if (session && !session.startsWith('anon.')) return true;
  return TOKEN_PARAMS.test(request.url);
}

/** Passes a body through until it exceeds `limit` bytes, then fails with 413 (nothing more is read). */
class LimitedBody extends Transform {
  private received = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.limit) callback(tooLarge());
    else callback(null, chunk);
  }
}

/** Call before routes are added: the sign-in and OAuth routes' limit, and the anonymous limit everywhere else. */
export function limitUnauthenticatedBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (options) => {
    if (options.bodyLimit !== undefined) return;
    const ability = (options.config as { ability?: RouteAbility } | undefined)?.ability;
    if (isUnauthenticatedEndpoint(options.url, ability)) options.bodyLimit = UNAUTHENTICATED_BODY_LIMIT;
  });
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.routeOptions.bodyLimit <= UNAUTHENTICATED_BODY_LIMIT || !PARSED_TYPES.test(request.headers['content-type'] ?? '')) return done(null, payload);
    if (PROTOCOL_PATHS.test(request.url) || presentsCredentials(request)) return done(null, payload);
    if (Number(request.headers['content-length']) > UNAUTHENTICATED_BODY_LIMIT) return done(tooLarge());
    done(null, payload.pipe(new LimitedBody(UNAUTHENTICATED_BODY_LIMIT)));
  });
}
