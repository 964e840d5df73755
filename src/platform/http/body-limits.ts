// Byte limits for the endpoints anyone may post to without an account. Their bodies are a few short
// form fields (a login and password, an OAuth code or refresh token), so they take far less than the
// API's 1 MiB: a caller without credentials cannot make Kiln read and parse large bodies there.
// The alert endpoint has its own limit (alerts/notify-routes.ts), and checks its key before parsing.
import type { FastifyInstance } from 'fastify';
import type { RouteAbility } from '../auth/subjects.js';

export const UNAUTHENTICATED_BODY_LIMIT = 64 * 1024;

/** Sign-in (and its second step) and the OAuth protocol endpoints (token, revoke, authorize, introspection…). */
const UNAUTHENTICATED_PATHS = /^\/(?:users|oauth)\//;

export function isUnauthenticatedEndpoint(url: string, ability: RouteAbility | undefined): boolean {
  return UNAUTHENTICATED_PATHS.test(url) || (ability !== undefined && 'credential' in ability && ability.credential === 'oauth');
}

/** Give those routes the small limit unless they declare their own (call before routes are added). */
export function limitUnauthenticatedBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (options) => {
    if (options.bodyLimit !== undefined) return;
    const ability = (options.config as { ability?: RouteAbility } | undefined)?.ability;
    if (isUnauthenticatedEndpoint(options.url, ability)) options.bodyLimit = UNAUTHENTICATED_BODY_LIMIT;
  });
}
