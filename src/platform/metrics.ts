// Prometheus metrics, one registry per app so tests and several apps in a process do not collide.
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import { RequestHistogram } from './request-histogram.js';

export interface Metrics {
  registry: Registry;
  requests: RequestHistogram;
  jobs: Counter<'kind' | 'outcome'>;
  alertsIngested: Counter<'outcome'>;
}

export function createMetrics(defaults: boolean): Metrics {
  const registry = new Registry();
  if (defaults) collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new RequestHistogram('kiln_http_request_duration_seconds', 'HTTP request durations by route', [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registry),
    jobs: new Counter({ name: 'kiln_jobs_total', help: 'Background jobs run, by kind and outcome', labelNames: ['kind', 'outcome'], registers: [registry] }),
    alertsIngested: new Counter({ name: 'kiln_alerts_ingested_total', help: 'Alert payloads received, by outcome', labelNames: ['outcome'], registers: [registry] }),
  };
}
