import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { features } from '../../src/features.js';
import { namespacedRoute } from '../../src/platform/http/namespaced-routes.js';
import { namespacedPage, csrfField } from '../../src/platform/web/page-route.js';
import { html } from '../../src/platform/web/html.js';
import { page, redirect } from '../../src/platform/web/page.js';
import { bareJsonRoute } from '../../src/platform/http/bare-http.js';
import { WebSession } from '../helpers/browser-session.js';

// A feature that exists only in this test, to exercise the dispatcher and namespaced pages.
const probe = {
  name: 'probe',
  routes(app: import('fastify').FastifyInstance, deps: import('../../src/platform/deps.js').Deps) {
    namespacedRoute(app, {
      method: 'POST',
      pattern: /^(?<path>.+?)\/probe\/notify\.json$/,
      ability: { credential: 'none' },
      handler: async (request, reply, groups) => reply.send({ path: groups.path, body: request.body }),
    });
    // A bare route (served from node:http before Fastify), and a fixed Fastify route of the same shape.
    namespacedRoute(app, {
      method: 'POST',
      pattern: /^(?<path>.+?)\/bare\/notify\.json$/,
      ability: { credential: 'none' },
      bare: bareJsonRoute(deps, {
        name: '/:path/bare/notify.json',
        bodyLimit: 1024,
        handle: ({ raw, body, groups }) => {
          const fail = (body.json as { fail?: string } | undefined)?.fail;
          if (fail === 'sync') throw new Error('thrown before any promise');
          if (fail === 'async') return Promise.reject(new Error('bare route failure'));
          return Promise.resolve({ status: 201, body: { path: groups.path, json: body.json ?? null, invalid: body.invalidJson, text: body.text ?? null, agent: raw.headers['user-agent'] ?? null } });
        },
      }),
    });
    app.post('/fixed/bare/notify.json', { config: { ability: { credential: 'none' } } }, async () => ({ fixed: true }));
    namespacedPage(app, deps, {
      method: 'GET',
      pattern: /^(?<path>.+?)\/-\/probe$/,
      ability: { project: 'read_project' },
      handler: async (context) => {
        const { project } = await context.project();
        return page({ title: `Probe of ${project.full_path}`, body: html`<form method="post">${csrfField(context)}</form>` });
      },
    });
    namespacedPage(app, deps, {
      method: 'POST',
      pattern: /^(?<path>.+?)\/-\/probe$/,
      ability: { project: 'read_project' },
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
  it('match nested group paths and parse the JSON body', async () => {
    const response = await kiln.request('POST', '/top/sub/deep/probe/notify.json', { body: { a: 1 } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ path: 'top/sub/deep', body: { a: 1 } });
  });

  it('fall through to 404 when nothing matches (anonymous visitors are asked to sign in, as GitLab does), and refuse traversal', async () => {
    const anonymous = await kiln.request('GET', '/top/nothing/here');
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe(`/users/sign_in?return_to=${encodeURIComponent('/top/nothing/here')}`);
    const web = new WebSession(kiln);
    await web.signIn('alice', alice.password);
    expect((await web.get('/top/nothing/here')).statusCode).toBe(404);
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

describe('bare namespaced routes', () => {
  let base: string;
  beforeAll(async () => {
    await kiln.app.listen({ host: '127.0.0.1', port: 0 });
    const address = kiln.app.server.address() as import('node:net').AddressInfo;
    base = `http://127.0.0.1:${address.port}`;
  });

  const post = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => fetch(`${base}${path}`, { method: 'POST', body, headers });

  it('are served over a real connection, with the JSON body, a request id and a JSON content type without charset', async () => {
    const response = await post('/top/sub/deep/bare/notify.json', '{"a":1}', { 'content-type': 'application/json', 'x-request-id': 'given-id', 'user-agent': 'probe' });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toBe('given-id');
    expect(await response.json()).toEqual({ path: 'top/sub/deep', json: { a: 1 }, invalid: false, text: '{"a":1}', agent: 'probe' });
    const generated = await post('/top/sub/deep/bare/notify.json', '');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await generated.json()).toMatchObject({ json: {}, invalid: false });
    // Timed in /-/metrics under the route's name, never the concrete URL.
    const metrics = await (await fetch(`${base}/-/metrics`)).text();
    expect(metrics).toMatch(/kiln_http_request_duration_seconds_count\{method="POST",route="\/:path\/bare\/notify\.json",status="201"\} [1-9]/);
    expect(metrics).not.toContain('top/sub/deep');
  });

  it('are reached through app.inject as well, with the same answer', async () => {
    const response = await kiln.request('POST', '/top/sub/deep/bare/notify.json', { body: { a: 1 }, headers: { 'user-agent': 'probe' } });
    expect(response.statusCode).toBe(201);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json()).toEqual({ path: 'top/sub/deep', json: { a: 1 }, invalid: false, text: '{"a":1}', agent: 'probe' });
  });

  it('tell invalid JSON from a body that is not JSON at all', async () => {
    expect(await (await post('/top/sub/deep/bare/notify.json', '{nope')).json()).toMatchObject({ json: null, invalid: true, text: '{nope' });
    expect(await (await post('/top/sub/deep/bare/notify.json', 'plain', { 'content-type': 'text/plain' })).json()).toMatchObject({ json: null, invalid: false, text: null });
  });

  it('refuse a body over the route limit with 413 and close the connection', async () => {
    const response = await post('/top/sub/deep/bare/notify.json', JSON.stringify({ big: 'x'.repeat(2000) }));
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toEqual({ message: '413 Request Entity Too Large' });
  });

  it('answer 500 in the GitLab shape when the handler fails, also before returning a promise', async () => {
    for (const fail of ['async', 'sync']) {
      const response = await post('/top/sub/deep/bare/notify.json', JSON.stringify({ fail }));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ message: '500 Internal Server Error' });
    }
    expect((await post('/top/sub/deep/bare/notify.json', '{}')).status).toBe(201);
  });

  it('leave a fixed route of the same shape, paths that could escape, and other methods to Fastify', async () => {
    expect(await (await post('/fixed/bare/notify.json', '{}')).json()).toEqual({ fixed: true });
    expect((await post('/top/%2e%2e/bare/notify.json', '{}')).status).toBe(404);
    // A GET is not the bare route's: it goes to the pages, which ask an anonymous visitor to sign in.
    const get = await fetch(`${base}/top/sub/deep/bare/notify.json`, { redirect: 'manual' });
    expect(get.status).toBe(302);
    expect(get.headers.get('location')).toMatch(/^\/users\/sign_in/);
  });
});
