// Hostile values on every API route of the route inventory (issue 33): NUL bytes, huge strings, wrong
// types, arrays and hashes where text is expected, deeply nested names, invalid UTF-8 escapes, in the
// query, the body and the path. Client input never makes Kiln answer 5xx. Bounded: each route gets a
// few of the value kinds in turn (every kind reaches every tenth route), not their cartesian product.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { routeInventory } from '../../src/platform/http/route-inventory.js';

let kiln: TestKiln;
let admin: TestUser;
const ids: Record<string, string> = {};

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

/** Common parameter names, so that hostile values reach the routes' own checks and not only "missing". */
const NAMES = ['title', 'name', 'path', 'description', 'body', 'note', 'due_date', 'start_date', 'ref', 'ref_name', 'branch', 'sha', 'file_path', 'content', 'labels', 'assignee_ids', 'state', 'state_event', 'search', 'order_by', 'sort', 'per_page', 'page', 'visibility', 'url', 'username', 'email', 'key', 'value', 'scopes', 'expires_at', 'access_level', 'user_id', 'namespace_id', 'tag_name', 'message', 'commit_message', 'actions', 'confidential', 'weight'];

type Kind = { name: string; json?: (key: string) => unknown; form?: string; path?: string };

const huge = 'x'.repeat(200_000);
const KINDS: Kind[] = [
  { name: 'NUL', json: () => 'a\u0000b', form: 'a%00b', path: 'a%00b' },
  { name: 'huge', json: () => huge, path: 'y'.repeat(900) },
  { name: 'number', json: () => 1e308 },
  { name: 'negative', json: () => -1, path: '-1' },
  { name: 'hash', json: () => ({ nested: { deeper: ['x'] } }) },
  { name: 'array of hashes', json: () => [{ a: 1 }, { b: [null] }] },
  { name: 'null and booleans', json: (key) => (key.length % 2 === 0 ? null : true) },
  { name: 'nested brackets', form: 'v' },
  { name: 'invalid UTF-8 escapes', form: '%E0%A4%A%C3%28%FF', path: '%C3%28' },
  { name: 'impossible date', json: () => '2026-13-45', form: '2026-02-30' },
  { name: 'unicode', json: () => '\u202e\ud83d\ude00\u0301\ufeff', path: encodeURIComponent('\u202e\ud83d\ude00') },
];

function concretePath(pattern: string, kind: Kind, hostilePath: boolean): string {
  let first = true;
  return pattern.replace(/:(\w+)/g, (_all, param: string) => {
    const hostile = hostilePath && first && kind.path !== undefined;
    first = false;
    if (hostile) return kind.path!;
    if (param === 'id') return pattern.startsWith('/api/v4/groups') ? ids.group : pattern.startsWith('/api/v4/users') ? ids.user : ids.project;
    if (param.endsWith('iid')) return ids.issue;
    if (param === 'milestone_id') return ids.milestone;
    if (param === 'user_id') return ids.user;
    if (/branch|ref|sha|tag/.test(param)) return 'main';
    return '1';
  });
}

function request(method: string, url: string, kind: Kind): InjectOptions {
  const headers: Record<string, string> = { 'private-token': admin.token };
  if (kind.form !== undefined) {
    const pairs = kind.name === 'nested brackets' ? NAMES.map((name) => `${name}${'[x]'.repeat(30)}=${kind.form}`) : NAMES.map((name) => `${name}=${kind.form}`);
    if (method === 'GET') return { method: 'GET', url: `${url}?${pairs.join('&')}`, headers } as InjectOptions;
    return { method, url, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: pairs.join('&') } as InjectOptions;
  }
  const values = Object.fromEntries(NAMES.map((name) => [name, kind.json!(name)]));
  if (method === 'GET') return { method: 'GET', url: `${url}?${NAMES.map((name) => `${name}=${encodeURIComponent(String(values[name]))}`).join('&')}`, headers } as InjectOptions;
  return { method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(values) } as InjectOptions;
}

describe('every API route, with hostile values', () => {
  it('never answers 5xx', { timeout: 600_000 }, async () => {
    const routes = routeInventory(kiln.app).filter((route) => route.path.startsWith('/api/v4/') && route.method !== 'DELETE' && route.method !== 'HEAD' && route.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let sent = 0;
    const statuses: Record<number, number> = {};
    for (const [index, route] of routes.entries()) {
      // Three kinds per route, rotating, and the path made hostile on every other request.
      for (let turn = 0; turn < 3; turn += 1) {
        const kind = KINDS[(index * 3 + turn) % KINDS.length];
        const url = concretePath(route.path, kind, turn % 2 === 1);
        const response = await kiln.app.inject(request(route.method, url, kind));
        sent += 1;
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
        if (response.statusCode >= 500) failures.push(`${route.method} ${route.path} [${kind.name}${turn % 2 === 1 ? ', path' : ''}] → ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
    }
    expect(sent).toBeGreaterThan(300);
    // The values reach the routes' own checks: many answers are the routes' 400s, not "not found".
    expect(statuses[400]).toBeGreaterThan(sent / 4);
    expect(failures).toEqual([]);
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

  it('answers a NUL in a path parameter (ref_name) with 4xx', async () => {
    const response = await kiln.app.inject({ method: 'GET', url: `/api/v4/projects/${ids.project}/repository/branches/ma%00in`, headers: { 'private-token': admin.token } });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});
