// Cache state is held per app (platform/instance-caches.ts on deps.caches), never per module: two
// apps in one process (as tests run them, or a worker beside a server) never see each other's entries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let a: TestKiln;
let b: TestKiln;
let aliceOfA: TestUser;
let aliceOfB: TestUser;

beforeAll(async () => {
  a = await testKiln();
  b = await testKiln();
  aliceOfA = await a.createUser('alice');
  aliceOfB = await b.createUser('alice');
});
afterAll(async () => {
  await a.close();
  await b.close();
});

/** Requests that fill the caches of `kiln`: a paginated listing, the events count, an alert posted twice. */
async function exercise(kiln: TestKiln, alice: TestUser): Promise<void> {
  const project = await kiln.createProject(alice, `cached-${Date.now()}`);
  expect((await kiln.api('GET', '/projects', { token: alice.token })).status).toBe(200);
  expect((await kiln.api('GET', '/events', { token: alice.token })).status).toBe(200);
  const integration = (await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: alice.token, body: { name: 'Main' } })).body;
  for (let post = 0; post < 2; post += 1) {
    const response = await kiln.request('POST', new URL(integration.url).pathname, { body: { title: 'Disk full', fingerprint: 'disk' }, headers: { authorization: `Bearer ${integration.token}` } });
    expect(response.statusCode).toBe(200);
  }
}

const FILLED = ['http.page-links', 'events.counts', 'alerts.opened-keys', 'alerts.remembered-integrations', 'alerts.bot-id'];

describe('two apps in one process', () => {
  it('keep their cache entries apart', async () => {
    await exercise(a, aliceOfA);
    const ofA = a.deps.caches.sizes();
    for (const name of FILLED) expect(ofA[name], name).toBeGreaterThan(0);
    // Nothing A remembered is visible to B: B has not made a single cache yet (only the request
    // counter its server and worker share from the start, jobs/pacing.ts, which remembers no data,
    // and its own application settings, read by its start: a new user takes default_projects_limit).
    const { 'application-settings.current': _settings, ...ofBefore } = withoutRequestCounter(b.deps.caches.sizes());
    expect(ofBefore).toEqual({});

    await exercise(b, aliceOfB);
    const ofB = b.deps.caches.sizes();
    for (const name of FILLED) expect(ofB[name], name).toBeGreaterThan(0);
    // B's traffic added nothing to A's caches.
    expect(a.deps.caches.sizes()).toEqual(ofA);
  });

  it('hand each app its own caches through the request too', () => {
    expect(a.app.caches).toBe(a.deps.caches);
    expect(b.app.caches).toBe(b.deps.caches);
    expect(a.deps.caches).not.toBe(b.deps.caches);
  });
});

function withoutRequestCounter(sizes: Record<string, number>): Record<string, number> {
  const { 'http.request-activity': _counter, ...caches } = sizes;
  return caches;
}
