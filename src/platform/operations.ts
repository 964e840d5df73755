// Health probes, Prometheus metrics and the OpenAPI document.
import type { FastifyInstance } from 'fastify';
import type { Deps } from './deps.js';
import { ping } from './db/database.js';
import { openApiRegistry } from './http/openapi.js';
import { addressAllowlist } from './http/address-allowlist.js';
import { KILN_VERSION } from './version.js';

const OPEN = { credential: 'none' } as const;
const READINESS_TIMEOUT_MS = 1_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function registerOperations(app: FastifyInstance, deps: Deps): void {
  app.get('/-/liveness', { config: { ability: OPEN } }, async () => ({ status: 'ok' }));
  app.get('/-/health', { config: { ability: OPEN } }, async (_request, reply) => reply.type('text/plain').send('GitLab OK'));
  app.get('/-/readiness', { config: { ability: OPEN } }, async (_request, reply) => {
    try {
      // A database that does not answer within the probe's budget is not ready (a load balancer
      // waits a few seconds at most); it is asked anew on the next probe.
      await withTimeout(ping(deps.db), READINESS_TIMEOUT_MS);
      return { status: 'ok', master_check: [{ status: 'ok' }], db_check: [{ status: 'ok' }] };
    } catch (error) {
      deps.log.warn({ err: error }, 'readiness: database unreachable');
      return reply.code(503).send({ status: 'failed', db_check: [{ status: 'failed', message: 'database unreachable' }] });
    }
  });
  const mayMonitor = addressAllowlist(deps.config.monitoringAllowlist);
  app.get('/-/metrics', { config: { ability: { credential: 'monitoring_allowlist' } } }, async (request, reply) => {
    // request.ip: the connection's address, or the client's as named by a trusted proxy (KILN_TRUSTED_PROXIES).
    if (!mayMonitor(request.ip)) return reply.callNotFound();
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });
  app.get('/api/v4/openapi.json', { config: { ability: OPEN } }, async () => openApiRegistry(app).document(deps.config.baseUrl, KILN_VERSION));
}
