// Hostile values (hostile-values.ts) on the routes fuzz-routes.test.ts leaves out (issue 33): every
// page route that takes a form (POST, PUT, PATCH, DELETE; signed in as an administrator, with the
// session's CSRF token, so the values reach the handlers), and every DELETE route of the API. Client
// input never makes Kiln answer 5xx. Bounded as there: a few kinds per route, rotating.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf } from '../helpers/browser-session.js';
import { routeInventory } from '../../src/platform/http/route-inventory.js';
import { FORM_KINDS, KINDS, concretePath, formPairs, hostileRequest, type FuzzIds } from './hostile-values.js';
import { LoopHolds } from '../helpers/liveness-probe.js';

let kiln: TestKiln;
let admin: TestUser;
const ids = {} as FuzzIds & { projectPath: string; groupPath: string };

/** A project with a repository, an issue and a milestone, in a group, all the admin's. */
async function fixtures(owner: TestUser, suffix: string) {
  const group = await kiln.createGroup(owner, `fuzz-group${suffix}`);
  const project = await kiln.createProject(owner, `fuzz${suffix}`, { namespace_id: group.id, initialize_with_readme: true } as never);
  const issue = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Target' });
  const milestone = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/milestones`, { title: 'v1' });
  return { group: String(group.id), project: String(project.id), issue: String(issue.iid), milestone: String(milestone.id), projectPath: project.path_with_namespace as string, groupPath: group.full_path as string };
}

beforeAll(async () => {
  kiln = await testKiln();
  admin = await kiln.createUser('fuzzer', { admin: true });
  Object.assign(ids, await fixtures(admin, ''), { user: String(admin.id) });
});
afterAll(() => kiln.close());

/** The index of the parenthesis closing the group that opens at `start` in a regex source, or -1. */
function closingParen(source: string, start: number): number {
  let depth = 0;
  for (let at = start; at < source.length; at += 1) {
    if (source[at] === '\\') at += 1;
    else if (source[at] === '(') depth += 1;
    else if (source[at] === ')' && (depth -= 1) === 0) return at;
  }
  return -1;
}

/** A value for a named group of a page pattern: the fixtures' paths and ids, or the group's first literal alternative. */
function groupValue(name: string, body: string, groupsFirst: boolean): string {
  if (name === 'path' || name.endsWith('_path')) return groupsFirst ? ids.groupPath : ids.projectPath;
  if (name === 'iid' || name.endsWith('_iid')) return ids.issue;
  if (/^[\w-]+(\|[\w-]+)*$/.test(body)) return body.split('|')[0];
  if (/\\d/.test(body)) return '1';
  return 'main';
}

/**
 * A concrete URL for a namespaced page's pattern (`/^(?<path>.+?)\/-\/issues\/(?<iid>\d{1,9})$/`):
 * named groups filled from the fixtures, lookaheads and optional groups dropped, escapes undone.
 * Null when the result does not match the pattern (the test counts those).
 */
function pageUrl(patternText: string): string | null {
  const match = /^\/(.*)\/([a-z]*)$/s.exec(patternText);
  if (!match) return null;
  const pattern = new RegExp(match[1], match[2]);
  let source = match[1];
  const groupsFirst = source.startsWith('^groups\\/');
  for (let at = source.indexOf('('); at !== -1; at = source.indexOf('(', at)) {
    if (source[at - 1] === '\\') {
      at += 1;
      continue;
    }
    const end = closingParen(source, at);
    if (end === -1) return null;
    const inner = source.slice(at + 1, end);
    const named = /^\?<(\w+)>/.exec(inner);
    const optional = source[end + 1] === '?';
    if (!named && !inner.startsWith('?=') && !inner.startsWith('?!') && !optional) {
      // A plain group: its first alternative, scanned again for groups inside it.
      source = `${source.slice(0, at)}${inner.replace(/^\?:/, '').split('|')[0]}${source.slice(end + 1)}`;
      continue;
    }
    // A named group is filled in; a lookahead and an optional group are dropped.
    const replacement = named && !optional ? groupValue(named[1], inner.slice(named[0].length), groupsFirst) : '';
    const skip = optional ? 2 : 1;
    source = `${source.slice(0, at)}${replacement}${source.slice(end + skip)}`;
    at += replacement.length;
  }
  const path = source.replace(/^\^|\$$/g, '').replace(/\\(.)/g, '$1');
  return pattern.test(path) ? `/${path}` : null;
}

/** Page routes that end the session or change whose it is go last; the session is renewed when lost. */
const SESSION_CHANGING = /sign_out|impersonat|password|two_factor|active_sessions/;

describe('every page form route, with hostile values', () => {
  it('never answers 5xx, and no request holds the event loop over 50 ms', { timeout: 600_000 }, async () => {
    const holds = new LoopHolds();
    const web = new WebSession(kiln);
    await web.signIn('fuzzer', admin.password);
    const routes = routeInventory(kiln.app)
      .filter((route) => !route.path.startsWith('/api/') && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method))
      .sort((a, b) => Number(SESSION_CHANGING.test(a.path)) - Number(SESSION_CHANGING.test(b.path)));
    expect(routes.length).toBeGreaterThan(60);
    const failures: string[] = [];
    const unreached: string[] = [];
    const statuses: Record<number, number> = {};
    let sent = 0;
    for (const [index, route] of routes.entries()) {
      const namespaced = route.path.startsWith('/^') || route.path.includes('\\/');
      const url = namespaced ? pageUrl(route.path) : concretePath(route.path, ids, KINDS[0], false);
      if (url === null) {
        unreached.push(route.path);
        continue;
      }
      for (let turn = 0; turn < 3; turn += 1) {
        const kind = FORM_KINDS[(index * 3 + turn) % FORM_KINDS.length];
        const token = csrfTokenOf((await web.get('/dashboard/activity')).body);
        const request: InjectOptions = {
          method: route.method as InjectOptions['method'],
          url,
          headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' },
          payload: [`authenticity_token=${encodeURIComponent(token)}`, ...formPairs(kind)].join('&'),
        };
        const response = await holds.measure(`${route.method} ${route.path} [${kind.name}]`, () => kiln.app.inject(request));
        sent += 1;
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
        // 501 is an answer, not a failure: the legacy Git LFS API answers it as GitLab does.
        if (response.statusCode >= 500 && response.statusCode !== 501) failures.push(`${route.method} ${route.path} [${kind.name}] → ${response.statusCode} ${response.body.slice(0, 200)}`);
        // A route that signed the administrator out (or became someone else): a fresh session for the rest.
        if (String(response.headers.location ?? '').includes('/users/sign_in') || SESSION_CHANGING.test(route.path)) {
          web.cookie = '';
          await web.signIn('fuzzer', admin.password);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await holds.persistent()).toEqual([]);
    // Nearly every page route was reached, and the forms got past the CSRF check to the handlers.
    expect(unreached.length, unreached.join('\n')).toBeLessThan(routes.length / 10);
    expect(statuses[422] ?? 0).toBeLessThan(sent / 2);
  });
});

describe('every DELETE route of the API, with hostile values', () => {
  it('never answers 5xx, and no request holds the event loop over 50 ms', { timeout: 600_000 }, async () => {
    const holds = new LoopHolds();
    // Their own fixtures and user, deepest routes first, so the resources are still there for most.
    const victim = await kiln.createUser('victim');
    const targets: FuzzIds = { ...(await fixtures(admin, '-doomed')), user: String(victim.id) };
    const routes = routeInventory(kiln.app)
      .filter((route) => route.path.startsWith('/api/v4/') && route.method === 'DELETE')
      .sort((a, b) => b.path.split('/').length - a.path.split('/').length);
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    for (const [index, route] of routes.entries()) {
      for (let turn = 0; turn < 2; turn += 1) {
        const kind = KINDS[(index * 2 + turn) % KINDS.length];
        const url = concretePath(route.path, targets, kind, turn === 0);
        const request = hostileRequest('DELETE', url, kind, { 'private-token': admin.token });
        const response = await holds.measure(`DELETE ${route.path} [${kind.name}]`, () => kiln.app.inject(request));
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
        if (response.statusCode >= 500) failures.push(`DELETE ${route.path} [${kind.name}${turn === 0 ? ', path' : ''}] → ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await holds.persistent()).toEqual([]);
    // The values reached the routes: some deleted what they named, many refused the hostile ones.
    expect(Object.keys(statuses).map(Number).some((status) => status >= 200 && status < 300)).toBe(true);
    expect(statuses[400] ?? 0).toBeGreaterThan(0);
  });
});
