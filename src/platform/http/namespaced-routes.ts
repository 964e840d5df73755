// GitLab puts project and group URLs under their full path, with nested groups of any depth
// (`/<group>/<subgroup>/<project>/-/settings/operations`, `/<path>.git/info/refs`,
// `/<path>/alerts/notify.json`). Fastify routes have a fixed depth, so one wildcard route dispatches
// these by regular expressions over the decoded path, in registration order.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type NamespacedMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface NamespacedRouteSpec {
  method: NamespacedMethod | NamespacedMethod[];
  /** Matched against the decoded URL path without its leading `/` and without the query string. */
  pattern: RegExp;
  handler: (request: FastifyRequest, reply: FastifyReply, groups: Record<string, string>) => Promise<unknown> | unknown;
}

const registries = new WeakMap<FastifyInstance, NamespacedRouteSpec[]>();

export function namespacedRoute(app: FastifyInstance, spec: NamespacedRouteSpec): void {
  const routes = registries.get(app) ?? [];
  routes.push(spec);
  registries.set(app, routes);
}

/** The decoded path, or null for paths that could escape a namespace (`..`, NUL, backslashes). */
export function decodedPath(url: string): string | null {
  const pathname = url.split('?')[0].replace(/^\/+/, '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').some((segment) => segment === '..' || segment === '.')) return null;
  return decoded;
}

/** Register the dispatcher once, after every feature has added its namespaced routes. */
export function registerNamespacedDispatcher(app: FastifyInstance): void {
  const routes = registries.get(app) ?? [];
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    // Alert payloads may be larger than the default so that the endpoint can answer its own 400.
    bodyLimit: 10 * 1024 * 1024,
    handler: async (request, reply) => {
      const path = decodedPath(request.url);
      if (path !== null) {
        for (const route of routes) {
          const methods = Array.isArray(route.method) ? route.method : [route.method];
          if (!methods.includes(request.method as NamespacedMethod) && !(request.method === 'HEAD' && methods.includes('GET'))) continue;
          const match = route.pattern.exec(path);
          if (match) return route.handler(request, reply, { ...(match.groups ?? {}) });
        }
      }
      return reply.callNotFound();
    },
  });
}
