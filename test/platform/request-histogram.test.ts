// The request histogram counts what prom-client's Histogram counts: /metrics shows the same text for
// the same observations (series, cumulative buckets with their bounds included, sums, counts).
import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { RequestHistogram } from '../../src/platform/request-histogram.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVED: Array<[string, string, string, number]> = [
  ['GET', '/api/v4/projects/:id', '200', 0.0004],
  ['GET', '/api/v4/projects/:id', '200', 0.001], // on a bound: counted in it
  ['GET', '/api/v4/projects/:id', '200', 0.05],
  ['GET', '/api/v4/projects/:id', '404', 3],
  ['POST', '/:path/alerts/notify.json', '201', 0.002],
  ['GET', 'route "with" \\ quotes\nand a newline', '500', 0.2],
];

describe('RequestHistogram', () => {
  it("writes the same exposition as prom-client's Histogram", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const histogram = new RequestHistogram('kiln_http_request_duration_seconds', 'HTTP request durations by route', BUCKETS, ours);
    const reference = new Histogram({ name: 'kiln_http_request_duration_seconds', help: 'HTTP request durations by route', labelNames: ['method', 'route', 'status'], buckets: BUCKETS, registers: [theirs] });
    for (const [method, route, status, seconds] of OBSERVED) {
      histogram.observe({ method, route, status }, seconds);
      reference.observe({ method, route, status }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain('kiln_http_request_duration_seconds_bucket{le="0.001",method="GET",route="/api/v4/projects/:id",status="200"} 2');
  });

  it('ignores a duration that is not a finite number instead of failing the request', async () => {
    const registry = new Registry();
    const histogram = new RequestHistogram('h', 'h', BUCKETS, registry);
    histogram.observe({ method: 'GET', route: '/', status: '200' }, Number.NaN);
    expect(await registry.metrics()).not.toContain('h_count');
  });
});
