// The route kits find the project or group a route declares and check its ability before the handler
// runs: a handler that never asks for its subject is still protected, `context.project(ability)`
// checks another ability on the same subject, and a route whose declared subject no kit checks is
// refused when it is registered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { features } from '../../src/features.js';
import type { Feature } from '../../src/platform/feature.js';
import type { Deps } from '../../src/platform/deps.js';
import { apiRoute } from '../../src/platform/http/route.js';
import { namespacedPage, pageRoute } from '../../src/platform/web/page-route.js';
import { namespacedRoute } from '../../src/platform/http/namespaced-routes.js';
import { recordRoutes } from '../../src/platform/http/route-inventory.js';
import { p } from '../../src/platform/http/params.js';
import { page } from '../../src/platform/web/page.js';
import { html } from '../../src/platform/web/html.js';

// What the probe routes' handlers saw: a handler that ran records itself.
const ran: string[] = [];

const probe: Feature = {
  name: 'route-kit-probe',
  routes(app, deps) {
    apiRoute(app, deps, {
      method: 'GET', url: '/kit-probe/projects/:id', summary: 'probe', tags: ['probe'], ability: { project: 'read_issue' }, auth: 'optional',
      params: { id: p.string.required() },
      // Never asks for its project: the kit has checked it anyway.
      handler: async () => {
        ran.push('project');
        return { ran: true };
      },
    });
    apiRoute(app, deps, {
      method: 'GET', url: '/kit-probe/projects/:id/admin', summary: 'probe', tags: ['probe'], ability: { project: 'read_project' },
      params: { id: p.string.required() },
      handler: async ({ project }) => {
        const access = await project('admin_project');
        return { id: access.project.id };
      },
    });
    apiRoute(app, deps, {
      method: 'GET', url: '/kit-probe/groups/:group_id', summary: 'probe', tags: ['probe'], ability: { group: 'admin_group', param: 'group_id' },
      params: { group_id: p.string.required() },
      handler: async ({ group }) => {
        ran.push('group');
        return { path: (await group()).group.full_path };
      },
    });
    namespacedPage(app, deps, {
      method: 'GET', pattern: /^(?<path>.+?)\/-\/kit-probe$/, ability: { project: 'admin_project' }, auth: 'optional',
      handler: async () => {
        ran.push('page');
        return page({ title: 'Probe', body: html`<p>probe</p>` });
      },
    });
  },
};

let kiln: TestKiln;
let owner: TestUser;
let stranger: TestUser;
let reporter: TestUser;
let privateProject: { id: number; path_with_namespace: string };
let group: { id: number; full_path: string };

beforeAll(async () => {
  // Before the namespace pages, which take every path no other route took.
  kiln = await testKiln({}, { features: [...features.slice(0, -1), probe, features.at(-1)!] });
  owner = await kiln.createUser('kit-owner');
  stranger = await kiln.createUser('kit-stranger');
  reporter = await kiln.createUser('kit-reporter');
  group = await kiln.createGroup(owner, 'kit-group', { visibility: 'public' });
  privateProject = await kiln.createProject(owner, 'kit-private', { visibility: 'private', namespace_id: group.id });
  await kiln.addMember(owner, 'projects', privateProject.id, reporter, 20);
});
afterAll(async () => {
  await kiln?.close();
});

describe('GET /api/v4/kit-probe/projects/:id (a handler that never asks for its project)', () => {
  it('answers 404 to a caller who cannot read the project, without running the handler', async () => {
    ran.length = 0;
    for (const token of [stranger.token, undefined]) {
      const response = await kiln.api('GET', `/kit-probe/projects/${privateProject.id}`, { token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Project Not Found' });
    }
    expect(ran).toEqual([]);
  });

  it('answers 403 to a member without the declared ability (issues private to members, a disabled feature), without running the handler', async () => {
    await kiln.apiAs(owner, 'PUT', `/projects/${privateProject.id}`, { issues_access_level: 'disabled' });
    ran.length = 0;
    const response = await kiln.api('GET', `/kit-probe/projects/${privateProject.id}`, { token: reporter.token });
    expect(response.status).toBe(403);
    expect(ran).toEqual([]);
    await kiln.apiAs(owner, 'PUT', `/projects/${privateProject.id}`, { issues_access_level: 'enabled' });
    expect((await kiln.api('GET', `/kit-probe/projects/${encodeURIComponent(privateProject.path_with_namespace)}`, { token: reporter.token })).body).toEqual({ ran: true });
  });
});

describe('GET /api/v4/kit-probe/projects/:id/admin (context.project with another ability)', () => {
  it('checks that ability on the same project: 403 for a reporter, the project for its owner', async () => {
    expect((await kiln.api('GET', `/kit-probe/projects/${privateProject.id}/admin`, { token: reporter.token })).status).toBe(403);
    expect((await kiln.api('GET', `/kit-probe/projects/${privateProject.id}/admin`, { token: stranger.token })).status).toBe(404);
    expect((await kiln.api('GET', `/kit-probe/projects/${privateProject.id}/admin`, { token: owner.token })).body).toEqual({ id: privateProject.id });
  });
});

describe('GET /api/v4/kit-probe/groups/:group_id (a group named by another parameter)', () => {
  it('checks the group before the handler: 403 for a non-member of a public group, the group for its owner', async () => {
    ran.length = 0;
    expect((await kiln.api('GET', `/kit-probe/groups/${group.id}`, { token: stranger.token })).status).toBe(403);
    expect(ran).toEqual([]);
    expect((await kiln.api('GET', `/kit-probe/groups/${group.id}`, { token: owner.token })).body).toEqual({ path: 'kit-group' });
  });
});

describe('GET /<project>/-/kit-probe (a namespaced page)', () => {
  it('checks the project before the handler: sign-in for anonymous visitors, 404 for strangers, 403 for a reporter', async () => {
    ran.length = 0;
    const url = `/${privateProject.path_with_namespace}/-/kit-probe`;
    const anonymous = await kiln.request('GET', url);
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toContain('/users/sign_in');
    const as = async (user: TestUser) => {
      const session = new WebSession(kiln);
      await session.signIn(user.username, user.password);
      return (await session.get(url)).statusCode;
    };
    expect(await as(stranger)).toBe(404);
    expect(await as(reporter)).toBe(403);
    expect(ran).toEqual([]);
    expect(await as(owner)).toBe(200);
    expect(ran).toEqual(['page']);
  });
});

describe('registering a route whose declared subject no kit checks', () => {
  const deps = {} as Deps;
  const handler = async () => ({});

  it('refuses an API route without the path parameter naming its project or group', () => {
    expect(() => apiRoute(Fastify(), deps, { method: 'GET', url: '/things', summary: 's', tags: [], ability: { project: 'read_project' }, handler })).toThrow(/no parameter `id`/);
    expect(() => apiRoute(Fastify(), deps, { method: 'GET', url: '/groups/:id', summary: 's', tags: [], ability: { group: 'read_group', param: 'group_id' }, handler })).toThrow(/no parameter `group_id`/);
  });

  it('refuses a page without the parameter or pattern group naming its subject', () => {
    const render = async () => page({ title: 'x', body: html`` });
    expect(() => pageRoute(Fastify(), deps, { method: 'GET', url: '/things', ability: { group: 'read_group' }, handler: render })).toThrow(/no parameter `group`/);
    expect(() => namespacedPage(Fastify(), deps, { method: 'GET', pattern: /^things$/, ability: { project: 'read_project' }, handler: render })).toThrow(/no parameter `path`/);
  });

  it('refuses a namespaced route or a plain Fastify route that declares a project or group ability', () => {
    expect(() => namespacedRoute(Fastify(), { method: 'GET', pattern: /^(?<path>.+)\/x$/, ability: { project: 'read_project' }, handler })).toThrow(/not registered by a kit that checks it/);
    const app = Fastify();
    recordRoutes(app);
    expect(() => app.get('/x/:id', { config: { ability: { project: 'read_project' } } }, handler)).toThrow(/not registered by a kit that checks it/);
  });
});
