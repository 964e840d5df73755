// Grouping is a database invariant (issue 6): N concurrent identical posts spread over two Kiln
// processes on one PostgreSQL give exactly one open alert with events = N. Runs only when
// KILN_TEST_DATABASE_URL names a PostgreSQL server; each run uses a fresh database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { freshPostgres, type FreshPostgres } from './helpers/fresh-postgres.js';

const adminUrl = process.env.KILN_TEST_DATABASE_URL;
const N = 80;

describe.skipIf(!adminUrl)('two Kiln processes on one PostgreSQL', () => {
  let database: FreshPostgres | null = null;
  let a: KilnProcess;
  let b: KilnProcess;
  let dataDir = '';

  beforeAll(async () => {
    database = await freshPostgres('alerts_race');
    const env = { KILN_DATABASE_URL: database!.url };
    // Nodes share the instance secrets (docs/architecture.md: the data directory's secrets file), here by
    // sharing one data directory; the second node reads the file the first one wrote.
    dataDir = mkdtempSync(join(tmpdir(), 'kiln-race-'));
    a = await startKilnProcess({ env, dataDir });
    b = await startKilnProcess({ env, dataDir });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${N} concurrent identical posts give one open alert with events = ${N}, and concurrent new fingerprints one alert each`, async () => {
    const project = await apiCall(a, 'POST', '/projects', { name: 'race', path: 'race' });
    const integration = await apiCall(a, 'POST', `/projects/${project.id}/alert_management/integrations`, { name: 'Race' });
    const path = new URL(integration.url).pathname;
    const post = (server: KilnProcess, body: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${integration.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const responses = await Promise.all(Array.from({ length: N }, (_, i) => post(i % 2 === 0 ? a : b, { title: 'Same alert', fingerprint: 'same' })));
    const statuses = responses.map((r) => r.status);
    expect(statuses).toEqual(Array(N).fill(200));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(bodies.map((body: any) => body[0].iid)).size).toBe(1);

    const open = await apiCall(b, 'GET', `/projects/${project.id}/alert_management_alerts?status=open&per_page=100`);
    expect(open).toHaveLength(1);
    expect(open[0].events).toBe(N);

    // Ten fingerprints, each posted eight times at once across both nodes.
    const mixed = await Promise.all(Array.from({ length: N }, (_, i) => post(i % 2 === 0 ? b : a, { title: `fp ${i % 10}`, fingerprint: `fp-${i % 10}` })));
    expect(mixed.every((r) => r.status === 200)).toBe(true);
    const all = await apiCall(a, 'GET', `/projects/${project.id}/alert_management_alerts?status=open&per_page=100&search=fp`);
    expect(all).toHaveLength(10);
    expect(all.map((alert: any) => alert.events)).toEqual(Array(10).fill(N / 10));
  });
});
