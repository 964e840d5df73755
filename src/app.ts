// Builds the Fastify app from the feature modules; never listens (tests use inject).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Deps } from './platform/deps.js';
import type { Feature } from './platform/feature.js';
import { answerNotFound } from './platform/web/not-found-page.js';
import { registerBodyParsers } from './platform/http/body-parsers.js';
import { routerQueryParser } from './platform/http/param-bag.js';
import { enforceRequestDeadline, serverTimeoutOptions } from './platform/http/server-timeouts.js';
import { apiErrorHandler } from './platform/http/error-handler.js';
import { LazyChildLogger, requestSerializers } from './platform/logger.js';
import { registerOperations } from './platform/operations.js';
import { registerNamespacedDispatcher } from './platform/http/namespaced-routes.js';
import { openApiRegistry } from './platform/http/openapi.js';
import { recordRoutes } from './platform/http/route-inventory.js';
import { etagOfAnswer, noneMatch } from './platform/http/etag.js';

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

export async function buildApp(deps: Deps, features: Feature[]): Promise<FastifyInstance> {
  // Bare routes are served before Fastify (namespaced-routes.ts); the dispatcher is known once every
  // feature has registered its routes, after the server exists.
  let serveBare: (request: IncomingMessage, response: ServerResponse) => boolean = () => false;
  let closing = false;
  const app = Fastify({
    serverFactory: (fastifyListener: Listener) => {
      const limitMs = deps.config.requestTimeoutMs;
      return createServer(serverTimeoutOptions(deps.config), (request, response) => {
        enforceRequestDeadline(request, response, limitMs);
        // While closing, Fastify answers 503 with `Connection: close` (return503OnClosing): let it.
        if (closing || !serveBare(request, response)) fastifyListener(request, response);
      });
    },
    loggerInstance: deps.log.child({}, { serializers: requestSerializers }),
    // Per-request lines only at debug level; errors are always logged by the error handler.
    logController: new LogController({ disableRequestLogging: deps.config.logLevel !== 'debug' && deps.config.logLevel !== 'trace' }),
    // Only the configured reverse proxies may name the client in X-Forwarded-For (KILN_TRUSTED_PROXIES).
    trustProxy: deps.config.trustedProxies.length > 0 ? deps.config.trustedProxies : false,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000, querystringParser: routerQueryParser },
    return503OnClosing: true,
    // A caller's (or proxy's) X-Request-Id is kept so log lines correlate across hops; else a UUID.
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    childLoggerFactory: (logger, bindings, options) => new LazyChildLogger(logger as never, bindings, options) as never,
  }) as unknown as FastifyInstance;
  app.decorateRequest('principal', null);
  // The app's caches for code that holds a request and no deps (platform/instance-caches.ts).
  app.decorate('caches', deps.caches);
  recordRoutes(app);
  registerBodyParsers(app);
  app.setErrorHandler(apiErrorHandler);
  // Callback hooks, not async ones: an async hook costs every request a promise and a microtask hop.
  app.addHook('onSend', (request, reply, payload, done) => {
    // python-gitlab compares the content type for equality (docs/clients.md): no charset on JSON.
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) reply.header('content-type', 'application/json');
    reply.header('x-request-id', request.id);
    if (request.url.startsWith('/api/')) {
      reply.header('x-frame-options', 'SAMEORIGIN');
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', reply.getHeader('cache-control') ?? 'max-age=0, private, must-revalidate');
      // A repeated read: 304 when the answer is what the caller already has (http/etag.ts).
      if (request.method === 'GET' && reply.statusCode === 200 && typeof payload === 'string') {
        const etag = etagOfAnswer(reply, payload);
        reply.header('etag', etag);
        if (noneMatch(request.headers['if-none-match'], etag)) {
          reply.code(304);
          reply.removeHeader('content-type');
          return done(null, '');
        }
      }
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    deps.metrics.requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/v3/')) return reply.code(410).send({ error: 'API V3 is no longer supported. Use API V4 instead.' });
    // A known path with another method is Grape's 405 (GitLab's REST API documentation).
    if (request.url.startsWith('/api/v4/') && openApiRegistry(app).matchesPath(request.url.split('?')[0])) {
      return reply.code(405).send({ error: '405 Not Allowed' });
    }
    if (request.url.startsWith('/api/')) return reply.code(404).send({ error: '404 Not Found' });
    return answerNotFound(deps, request, reply);
  });

  for (const feature of features) feature.setup?.(deps);
  registerOperations(app, deps);
  for (const feature of features) await feature.routes?.(app, deps);
  serveBare = registerNamespacedDispatcher(app);
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  return app;
}
