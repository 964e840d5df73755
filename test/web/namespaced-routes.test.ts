import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { features } from '../../src/features.js';
import { namespacedRoute } from '../../src/platform/http/namespaced-routes.js';
import { namespacedPage, csrfField } from '../../src/web/page-route.js';
import { findProject } from '../../src/accounts/lookup.js';
import { html } from '../../src/web/html.js';
import { page, redirect } from '../../src/web/page.js';
import { WebSession } from '../helpers/browser-session.js';

// A feature that exists only in this test, to exercise the dispatcher and namespaced pages.
const probe = {
  name: 'probe',
  routes(app: import('fastify').FastifyInstance, deps: import('../../src/platform/deps.js').Deps) {
    namespacedRoute(app, {
      method: 'POST',
      pattern: /^(?<path>.+?)\/probe\/notify\.json$/,
      handler: async (request, reply, groups) => reply.send({ path: groups.path, rawLength: request.rawBody?.length ?? null }),
    });
    namespacedPage(app, deps, {
      method: 'GET',
      pattern: /^(?<path>.+?)\/-\/probe$/,
      handler: async (context) => {
        const { project } = await findProject(deps, { user: context.user, scopes: [], via: 'session', tokenId: null }, context.match.path);
        return page({ title: `Probe of ${project.full_path}`, body: html`<form method="post">${csrfField(context)}</form>` });
      },
    });
    namespacedPage(app, deps, {
      method: 'POST',
      pattern: /^(?<path>.+?)\/-\/probe$/,
      handler: async (context) => redirect(`/${context.match.path}/-/probe`, 'Saved'),
    });
  },
};

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln({}, { features: [...features, probe] });
  alice = await kiln.createUser('alice');
  const group = await kiln.createGroup(alice, 'top');
  const sub = await kiln.createGroup(alice, 'sub', { parent_id: group.id });
  await kiln.createProject(alice, 'deep', { namespace_id: sub.id });
});
afterAll(() => kiln.close());

describe('namespaced routes', () => {
  it('match nested group paths and keep the raw JSON body', async () => {
    const response = await kiln.request('POST', '/top/sub/deep/probe/notify.json', { body: { a: 1 } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ path: 'top/sub/deep', rawLength: 7 });
  });

  it('fall through to 404 when nothing matches, and refuse traversal', async () => {
    expect((await kiln.request('GET', '/top/nothing/here')).statusCode).toBe(404);
    expect((await kiln.request('POST', '/top/%2e%2e/probe/notify.json', { body: {} })).statusCode).toBe(404);
  });

  it('serve pages with the session, CSRF and a flash after a redirect', async () => {
    const web = new WebSession(kiln);
    await web.signIn('alice', alice.password);
    const shown = await web.get('/top/sub/deep/-/probe');
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Probe of top/sub/deep');
    const saved = await web.post('/top/sub/deep/-/probe', {}, { csrfFrom: '/top/sub/deep/-/probe' });
    expect(saved.statusCode).toBe(303);
    const after = await web.get('/top/sub/deep/-/probe');
    expect(after.body).toContain('Saved');
    expect((await web.get('/top/sub/deep/-/probe')).body).not.toContain('Saved');
  });

  it('answer 404 pages for projects the user cannot see', async () => {
    const bob = await kiln.createUser('bob');
    const web = new WebSession(kiln);
    await web.signIn('bob', bob.password);
    expect((await web.get('/top/sub/deep/-/probe')).statusCode).toBe(404);
  });
});
