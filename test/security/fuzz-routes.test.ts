// Hostile values (hostile-values.ts) on every non-DELETE API route of the route inventory (issue 33),
// in the query, the body and the path: client input never makes Kiln answer 5xx. DELETE routes and
// page forms have theirs in fuzz-pages-and-deletes.test.ts. Bounded: each route gets a
// few of the value kinds in turn (every kind reaches every tenth route), not their cartesian product.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { routeInventory } from '../../src/platform/http/route-inventory.js';
import { KINDS, concretePath, hostileRequest, type FuzzIds } from './hostile-values.js';
import { LoopHolds } from '../helpers/liveness-probe.js';

let kiln: TestKiln;
let admin: TestUser;
const ids = {} as FuzzIds;

beforeAll(async () => {
  kiln = await testKiln();
  admin = await kiln.createUser('fuzzer', { admin: true });
  const group = await kiln.createGroup(admin, 'fuzz-group');
  const project = await kiln.createProject(admin, 'fuzz', { initialize_with_readme: true } as never);
  const issue = await kiln.api('POST', `/projects/${project.id}/issues`, { token: admin.token, body: { title: 'Target' } });
  const milestone = await kiln.api('POST', `/projects/${project.id}/milestones`, { token: admin.token, body: { title: 'v1' } });
  Object.assign(ids, { group: String(group.id), project: String(project.id), user: String(admin.id), issue: String(issue.body.iid), milestone: String(milestone.body.id) });
});
afterAll(() => kiln.close());

describe('every API route, with hostile values', () => {
  it('never answers 5xx, and no request holds the event loop over 50 ms', { timeout: 600_000 }, async () => {
    const holds = new LoopHolds();
    const routes = routeInventory(kiln.app).filter((route) => route.path.startsWith('/api/v4/') && route.method !== 'DELETE' && route.method !== 'HEAD' && route.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let sent = 0;
    const statuses: Record<number, number> = {};
    for (const [index, route] of routes.entries()) {
      // Three kinds per route, rotating, and the path made hostile on every other request.
      for (let turn = 0; turn < 3; turn += 1) {
        const kind = KINDS[(index * 3 + turn) % KINDS.length];
        const url = concretePath(route.path, ids, kind, turn % 2 === 1);
        const request = hostileRequest(route.method, url, kind, { 'private-token': admin.token });
        const response = await holds.measure(`${route.method} ${route.path} [${kind.name}]`, () => kiln.app.inject(request));
        sent += 1;
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
        if (response.statusCode >= 500) failures.push(`${route.method} ${route.path} [${kind.name}${turn % 2 === 1 ? ', path' : ''}] → ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
    }
    expect(sent).toBeGreaterThan(300);
    // The values reach the routes' own checks: many answers are the routes' 400s, not "not found".
    expect(statuses[400]).toBeGreaterThan(sent / 4);
    expect(failures).toEqual([]);
    expect(await holds.persistent()).toEqual([]);
  });
});

describe('the hostile values of the issue, one by one', () => {
  const project = () => `/projects/${ids.project}`;

  it.each([
    ['POST', () => `${project()}/milestones`, { title: 'm1', due_date: '2026-13-45' }, 'due_date is invalid'],
    ['POST', () => `${project()}/milestones`, { title: 'm2', start_date: '2026-02-30' }, 'start_date is invalid'],
    ['PUT', () => `${project()}/milestones/${ids.milestone}`, { due_date: '2026-13-45' }, 'due_date is invalid'],
    ['POST', () => `/groups/${ids.group}/milestones`, { title: 'g1', start_date: '2026-13-45' }, 'start_date is invalid'],
    ['POST', () => `${project()}/issues`, { title: 'i', due_date: '2026-13-45' }, 'due_date is invalid'],
    ['POST', () => `${project()}/issues`, { title: 'a\u0000b' }, 'title is invalid'],
    ['POST', () => `${project()}/repository/branches`, { branch: 'x\u0000y', ref: 'main' }, 'branch is invalid'],
  ])('%s %s with %j → 400 naming the parameter', async (method, path, body, error) => {
    const response = await kiln.api(method, path(), { token: admin.token, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
  });

  it('keeps hook saves working after an invalid CIDR in the outbound allow-list (a name GitLab never matches)', async () => {
    await kiln.apiAs(kiln.root, 'PUT', '/application/settings', { outbound_local_requests_whitelist: ['10.0.0.0/33', '::1/200', '10.1.0.0/16'] });
    try {
      expect((await kiln.api('POST', `${project()}/hooks`, { token: admin.token, body: { url: 'https://hooks.example/ok' } })).status).toBe(201);
      const blocked = await kiln.api('POST', `${project()}/hooks`, { token: admin.token, body: { url: 'http://10.0.0.1/' } });
      expect(blocked.body).toEqual({ message: { url: ['is blocked: Requests to the local network are not allowed'] } });
      expect((await kiln.api('POST', `${project()}/hooks`, { token: admin.token, body: { url: 'http://10.1.2.3/' } })).status).toBe(201);
    } finally {
      await kiln.apiAs(kiln.root, 'PUT', '/application/settings', { outbound_local_requests_whitelist: [] });
    }
  });

  it('answers a NUL in a path parameter (ref_name) with 4xx', async () => {
    const response = await kiln.app.inject({ method: 'GET', url: `/api/v4/projects/${ids.project}/repository/branches/ma%00in`, headers: { 'private-token': admin.token } });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});
