// GitLab puts project and group URLs under their full path, with nested groups of any depth
// (`/<group>/<subgroup>/<project>/-/settings/operations`, `/<path>.git/info/refs`,
// `/<path>/alerts/notify.json`). Fastify routes have a fixed depth, so one wildcard route dispatches
// these by regular expressions over the decoded path, in registration order.
//
// A route may instead be *bare*: served from node:http's own request and response, before Fastify
// sees the request (app.ts installs the dispatcher's bare half in the server). That is for an endpoint whose
// whole cost per request is a few tens of microseconds (the alert endpoint, docs/performance.md),
// where Fastify's request, reply, hooks and body parsing would be a third of it. Which route serves
// a path is decided the same way for both kinds; `app.inject` reaches bare routes too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteAbility } from '../auth/subjects.js';
import { assertSubjectChecked, routeInventory } from './route-inventory.js';
import { BoundedMap } from '../bounded-map.js';
import { requestActivity } from '../jobs/pacing.js';

export type NamespacedMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Reads the body itself and always answers (bare-http.ts has the helpers). */
export type BareHandler = (request: IncomingMessage, response: ServerResponse, groups: Readonly<Record<string, string>>) => void;

interface RouteBase {
  method: NamespacedMethod | NamespacedMethod[];
  /** What the route lets its caller do (platform/auth/subjects.ts). */
  ability: RouteAbility;
  /** Matched against the decoded URL path without its leading `/` and without the query string. */
  pattern: RegExp;
  /**
   * Set by the page kit (page-route.ts `namespacedPage`), which finds the declared project or group
   * and checks its ability before the handler. A route without it may not declare one.
   */
  subjectChecked?: boolean;
}

export type NamespacedRouteSpec = RouteBase &
  (
    | { handler: (request: FastifyRequest, reply: FastifyReply, groups: Readonly<Record<string, string>>) => Promise<unknown> | unknown; bare?: never }
    | { bare: BareHandler; handler?: never }
  );

const registries = new WeakMap<FastifyInstance, NamespacedRouteSpec[]>();

export function namespacedRoute(app: FastifyInstance, spec: NamespacedRouteSpec): void {
  assertSubjectChecked(`${[spec.method].flat().join(',')} ${String(spec.pattern)}`, spec.ability, spec.subjectChecked === true);
  const routes = registries.get(app) ?? [];
  routes.push(spec);
  registries.set(app, routes);
  for (const method of [spec.method].flat()) routeInventory(app).push({ method, path: String(spec.pattern), ability: spec.ability, subjectChecked: spec.subjectChecked === true });
}

// A segment that is `.` or `..`, a backslash or a NUL: the path could escape its namespace.
const UNSAFE_PATH = /(?:^|\/)\.\.?(?:\/|$)|\\|\0/;

/** The decoded path, or null for paths that could escape a namespace (`..`, NUL, backslashes). */
export function decodedPath(url: string): string | null {
  const query = url.indexOf('?');
  const pathname = (query === -1 ? url : url.slice(0, query)).replace(/^\/+/, '');
  let decoded = pathname;
  if (pathname.includes('%')) {
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
  }
  return UNSAFE_PATH.test(decoded) ? null : decoded;
}

interface Match {
  route: NamespacedRouteSpec;
  groups: Readonly<Record<string, string>>;
}

/** The routes that take each method, in registration order (HEAD is served by GET routes). */
function byMethod(routes: NamespacedRouteSpec[]): Map<string, NamespacedRouteSpec[]> {
  const lists = new Map<string, NamespacedRouteSpec[]>();
  for (const route of routes) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods.includes('GET') ? [...methods, 'HEAD'] : methods) {
      if (!lists.has(method)) lists.set(method, []);
      lists.get(method)!.push(route);
    }
  }
  return lists;
}

/** The first route, in registration order, that takes this path. */
function firstMatch(routes: NamespacedRouteSpec[] | undefined, url: string): Match | null {
  if (!routes) return null;
  const path = decodedPath(url);
  if (path === null) return null;
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (match) return { route, groups: Object.freeze({ ...match.groups }) };
  }
  return null;
}

const REMEMBERED_URLS = 1000;

/**
 * Which route takes a URL is a pure function of the method, the URL and the fixed route table, and
 * senders post to the same few URLs again and again: remember the answer (the regular expressions
 * over a deep path cost several microseconds, a measurable share of the alert endpoint).
 */
function rememberingMatcher<T>(decide: (method: string, url: string) => T): (method: string, url: string) => T {
  // Per dispatcher, that is per app.
  const remembered = new Map<string, BoundedMap<string, T>>();
  return (method, url) => {
    let byUrl = remembered.get(method);
    if (byUrl === undefined) remembered.set(method, (byUrl = new BoundedMap(REMEMBERED_URLS)));
    let decision = byUrl.get(url);
    if (decision === undefined && !byUrl.has(url)) {
      decision = decide(method, url);
      byUrl.set(url, decision);
    }
    return decision as T;
  };
}

/**
 * Register the dispatcher once, after every feature has added its namespaced routes. Returns the
 * server's first look at a request: serve it here when it belongs to a bare route (true), else leave
 * it to Fastify (false). A bare route only takes what Fastify itself would have sent to this
 * dispatcher, so a fixed route of the same shape keeps its precedence.
 */
export function registerNamespacedDispatcher(app: FastifyInstance): (request: IncomingMessage, response: ServerResponse) => boolean {
  const routes = byMethod(registries.get(app) ?? []);
  const match = rememberingMatcher((method, url) => firstMatch(routes.get(method), url));
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    config: { ability: { credential: 'dispatch' } },
    // Alert payloads may be larger than the default so that the endpoint can answer its own 400.
    bodyLimit: 10 * 1024 * 1024,
    // Before the body is read: a bare route reads it itself. The server's bare dispatcher takes
    // these requests before Fastify; this serves the ones that come through Fastify (`app.inject`).
    onRequest: (request, reply, done) => {
      const found = match(request.method, request.url);
      if (!found?.route.bare) return done();
      reply.hijack();
      found.route.bare(request.raw, reply.raw, found.groups);
    },
    handler: async (request, reply) => {
      const found = match(request.method, request.url);
      if (found?.route.handler) return found.route.handler(request, reply, found.groups);
      return reply.callNotFound();
    },
  });

  // Only the methods some bare route takes: every other request goes straight to Fastify.
  const bareMethods = new Set([...routes].filter(([, list]) => list.some((route) => route.bare)).map(([method]) => method));
  const bareMatch = rememberingMatcher((method, url) => {
    const found = match(method, url);
    if (!found?.route.bare) return null;
    const routed = app.findRoute({ method: method as NamespacedMethod, url: url.split('?')[0] });
    return routed?.params['*'] === undefined ? null : found;
  });
  // Every request the server takes is counted here, its first look, so that the job worker yields
  // while requests arrive (jobs/pacing.ts): one increment, on the alert endpoint's path too.
  const activity = requestActivity(app.caches);
  return (request, response) => {
    activity.count += 1;
    if (!bareMethods.has(request.method!)) return false;
    const found = bareMatch(request.method!, request.url ?? '/');
    if (found === null) return false;
    found.route.bare!(request, response, found.groups);
    return true;
  };
}
