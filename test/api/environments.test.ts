import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: { id: number; path_with_namespace: string };
let publicProject: { id: number };

const NAME_FORMAT = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'";
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('dev');
  reporter = await kiln.createUser('rep');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'shop', { visibility: 'private' });
  publicProject = await kiln.createProject(owner, 'open', { visibility: 'public' });
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
});
afterAll(() => kiln.close());

const envs = (projectId: number | string = project.id) => `/projects/${projectId}/environments`;

async function create(name: string, extra: Record<string, unknown> = {}, projectId: number = project.id, token = developer.token) {
  const { status, body } = await kiln.api('POST', envs(projectId), { token, body: { name, ...extra } });
  if (status !== 201) throw new Error(`create ${name}: ${status} ${JSON.stringify(body)}`);
  return body;
}

async function stop(id: number, projectId: number = project.id) {
  return kiln.api('POST', `${envs(projectId)}/${id}/stop`, { token: developer.token, body: {} });
}

async function deploy(environment: string, status = 'success', extra: Record<string, unknown> = {}) {
  const { status: code, body } = await kiln.api('POST', `/projects/${project.id}/deployments`, {
    token: developer.token,
    body: { environment, sha: 'a'.repeat(40), ref: 'main', tag: false, status, ...extra },
  });
  if (code !== 201) throw new Error(`deploy ${environment}: ${code} ${JSON.stringify(body)}`);
  return body;
}

describe('POST /api/v4/projects/:id/environments', () => {
  describe('as a developer', () => {
    it('returns 201 and the short environment, available, with a generated slug and guessed tier', async () => {
      const { status, body, headers } = await kiln.api('POST', envs(), { token: developer.token, body: { name: 'review/fix-foo', external_url: 'https://fix-foo.example.com' } });
      expect(status).toBe(201);
      expect(headers['content-type']).toBe('application/json');
      expect(body).toEqual({ id: expect.any(Number), name: 'review/fix-foo', slug: 'review-fix-foo-v25cyx', external_url: 'https://fix-foo.example.com', state: 'available', tier: 'development' });
    });

    it('leaves external_url null when not given and strips whitespace around it', async () => {
      expect((await create('plain')).external_url).toBeNull();
      expect((await create('padded', { external_url: '  https://padded.example.com  ' })).external_url).toBe('https://padded.example.com');
    });

    it('takes an explicit tier over the guess', async () => {
      expect((await create('production')).tier).toBe('production');
      expect((await create('dev-but-prod', { tier: 'production' })).tier).toBe('production');
    });

    it('accepts a form-encoded body and a URL-encoded project path', async () => {
      const { status, body } = await kiln.api('POST', envs(encodeURIComponent(project.path_with_namespace)), { token: developer.token, form: { name: 'from-form' } });
      expect(status).toBe(201);
      expect(body.slug).toBe('from-form');
    });

    it('answers 400 with Grape\'s message when name is missing', async () => {
      const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { external_url: 'https://x.example.com' } });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'name is missing' });
    });

    it('refuses a slug parameter: the slug is generated', async () => {
      const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { name: 'sluggy', slug: 'mine' } });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'slug is automatically generated and cannot be changed' });
    });

    it('refuses an unknown tier', async () => {
      const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { name: 'tiered', tier: 'gold' } });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'tier does not have a valid value' });
    });

    it('reports a blank name as both blank and badly formed', async () => {
      const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { name: '' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { name: ["can't be blank", NAME_FORMAT] } });
    });

    it.each(['/leading', 'trailing/', 'star*', 'tab\tname', 'new\nline'])('refuses the badly formed name %j', async (name) => {
      const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { name } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { name: [NAME_FORMAT] } });
    });

    it('accepts every character the name format allows', async () => {
      const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { name: 'a_b$c{d}e.f g-h/i' } });
      expect(status).toBe(201);
      expect(body.name).toBe('a_b$c{d}e.f g-h/i');
    });

    it('refuses a name over 255 characters', async () => {
      const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { name: 'n'.repeat(256) } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });
      expect((await kiln.api('POST', envs(), { token: developer.token, body: { name: 'm'.repeat(255) } })).status).toBe(201);
    });

    it('refuses a name already taken in the project, naming name and slug', async () => {
      await create('staging');
      const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { name: 'staging' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { name: ['has already been taken'], slug: ['has already been taken'] } });
    });

    it('allows the same name in another project', async () => {
      const other = await kiln.createProject(owner, 'other-shop');
      const { status } = await kiln.api('POST', envs(other.id), { token: owner.token, body: { name: 'staging' } });
      expect(status).toBe(201);
    });

    it('lets exactly one of several racing creates of one name succeed', async () => {
      const results = await Promise.all([1, 2, 3, 4].map(() => kiln.api('POST', envs(), { token: developer.token, body: { name: 'racy' } })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 201)) expect(r.body.message.name).toEqual(['has already been taken']);
    });

    it.each([
      ['foo', 'is blocked: Only allowed schemes are http, https'],
      ['ftp://files.example.com', 'is blocked: Only allowed schemes are http, https'],
      ['javascript:alert(1)', 'is blocked: Only allowed schemes are http, https'],
      ['http://exa mple.com', 'is blocked: URI is invalid'],
      ['http://', 'is blocked: URI is invalid'],
      ['http://-bad.example.com', 'is blocked: Hostname or IP address invalid'],
    ])('refuses the external_url %j', async (url, message) => {
      const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { name: `bad-url-${Math.random().toString(36).slice(2, 8)}`, external_url: url } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { external_url: [message] } });
    });

    it('refuses an external_url over 255 characters', async () => {
      const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { name: 'long-url', external_url: `https://example.com/${'p'.repeat(240)}` } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { external_url: ['is too long (maximum is 255 characters)'] } });
    });

    it('allows localhost and private-network external URLs, as GitLab does for environments', async () => {
      expect((await create('local', { external_url: 'http://localhost:3000' })).external_url).toBe('http://localhost:3000');
      expect((await create('lan', { external_url: 'http://10.0.0.5/app' })).external_url).toBe('http://10.0.0.5/app');
    });
  });

  it('as a reporter answers 403', async () => {
    const { status, body } = await kiln.api('POST', envs(), { token: reporter.token, body: { name: 'nope' } });
    expect(status).toBe(403);
    expect(body).toEqual({ message: '403 Forbidden' });
  });

  it('as a non-member of a private project answers 404', async () => {
    const { status, body } = await kiln.api('POST', envs(), { token: stranger.token, body: { name: 'nope' } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Project Not Found' });
  });

  it('without a token answers 401', async () => {
    expect((await kiln.api('POST', envs(), { body: { name: 'nope' } })).status).toBe(401);
  });
});

describe('GET /api/v4/projects/:id/environments', () => {
  let listProject: { id: number };
  beforeAll(async () => {
    listProject = await kiln.createProject(owner, 'listing');
    for (const name of ['alpha', 'Alpine', 'beta', 'al.pha', 'al_x', 'xalpha']) await create(name, {}, listProject.id, owner.token);
    const beta = (await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { name: 'beta' } })).body[0];
    await kiln.api('POST', `${envs(listProject.id)}/${beta.id}/stop`, { token: owner.token });
  });

  it('as a reporter lists short environments by id with pagination headers', async () => {
    await kiln.addMember(owner, 'projects', listProject.id, reporter, 20);
    const { status, body, headers } = await kiln.api('GET', envs(listProject.id), { token: reporter.token, query: { per_page: 2, page: 2 } });
    expect(status).toBe(200);
    expect(body.map((e: any) => e.name)).toEqual(['beta', 'al.pha']);
    expect(Object.keys(body[0]).sort()).toEqual(['external_url', 'id', 'name', 'slug', 'state', 'tier']);
    expect(headers['x-total']).toBe('6');
    expect(headers['x-total-pages']).toBe('3');
    expect(headers['x-next-page']).toBe('3');
    expect(headers.link).toContain('rel="next"');
  });

  it('defaults to 20 per page', async () => {
    const { headers } = await kiln.api('GET', envs(listProject.id), { token: owner.token });
    expect(headers['x-per-page']).toBe('20');
  });

  it('filters by exact name, case-sensitively', async () => {
    expect((await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { name: 'alpha' } })).body.map((e: any) => e.name)).toEqual(['alpha']);
    expect((await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { name: 'ALPHA' } })).body).toEqual([]);
  });

  it('searches by name prefix, case-insensitively', async () => {
    const { body } = await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { search: 'AL' } });
    expect(body.map((e: any) => e.name)).toEqual(['alpha', 'Alpine', 'al.pha', 'al_x']);
  });

  it('treats % and _ in search literally', async () => {
    expect((await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { search: 'al%' } })).body).toEqual([]);
    expect((await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { search: 'al_' } })).body.map((e: any) => e.name)).toEqual(['al_x']);
  });

  it('ignores an empty name or search, as GitLab\'s finder does', async () => {
    expect((await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { name: '' } })).body).toHaveLength(6);
    expect((await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { search: '' } })).body).toHaveLength(6);
  });

  it('refuses name and search together', async () => {
    const { status, body } = await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { name: 'alpha', search: 'al' } });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'name, search cannot be used together' });
  });

  it('filters by state', async () => {
    expect((await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { states: 'stopped' } })).body.map((e: any) => e.name)).toEqual(['beta']);
    expect((await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { states: 'available' } })).body).toHaveLength(5);
  });

  it('refuses an unknown state', async () => {
    const { status, body } = await kiln.api('GET', envs(listProject.id), { token: owner.token, query: { states: 'stopping' } });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'states does not have a valid value' });
  });

  it('as a guest answers 403', async () => {
    expect((await kiln.api('GET', envs(), { token: guest.token })).status).toBe(403);
  });

  it('as a non-member of a public project answers 403', async () => {
    const { status, body } = await kiln.api('GET', envs(publicProject.id), { token: stranger.token });
    expect(status).toBe(403);
    expect(body).toEqual({ message: '403 Forbidden' });
  });

  it('as a non-member of a private project answers 404', async () => {
    const { status, body } = await kiln.api('GET', envs(listProject.id), { token: stranger.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Project Not Found' });
  });

  it('for an unknown project answers 404', async () => {
    expect((await kiln.api('GET', envs(999999), { token: owner.token })).body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('GET /api/v4/projects/:id/environments/:environment_id', () => {
  it('as a reporter returns the environment with a null last_deployment and no project', async () => {
    const env = await create('fresh');
    const { status, body } = await kiln.api('GET', `${envs()}/${env.id}`, { token: reporter.token });
    expect(status).toBe(200);
    expect(body).toEqual({ ...env, last_deployment: null });
    expect(body).not.toHaveProperty('project');
  });

  it('carries the latest successful deployment as last_deployment, with the specification\'s fields', async () => {
    const env = await create('shown');
    await deploy('shown', 'success', { sha: '1'.repeat(40) });
    kiln.clock.advance(1234);
    const latest = await deploy('shown', 'success', { sha: '2'.repeat(40), ref: 'v1.0', tag: true });
    await deploy('shown', 'failed', { sha: '3'.repeat(40) });
    await deploy('shown', 'running', { sha: '4'.repeat(40) });
    const { body } = await kiln.api('GET', `${envs()}/${env.id}`, { token: reporter.token });
    expect(body.last_deployment).toEqual({
      id: latest.id,
      iid: latest.iid,
      ref: 'v1.0',
      sha: '2'.repeat(40),
      created_at: latest.created_at,
      updated_at: latest.updated_at,
      status: 'success',
      user: { id: developer.id, name: 'User dev', username: 'dev', state: 'active', avatar_url: expect.stringMatching(/^http:\/\/kiln\.test\//), web_url: 'http://kiln.test/dev' },
      deployable: null,
    });
    expect(body.last_deployment.created_at).toMatch(ISO_MS);
    expect(body.last_deployment.created_at).toBe('2026-11-22T08:00:01.234Z');
  });

  it('answers 404 Not found for an unknown environment and for one of another project', async () => {
    expect((await kiln.api('GET', `${envs()}/999999`, { token: owner.token })).body).toEqual({ message: '404 Not found' });
    const other = await kiln.createProject(owner, 'elsewhere');
    const foreign = await create('foreign', {}, other.id, owner.token);
    const { status, body } = await kiln.api('GET', `${envs()}/${foreign.id}`, { token: owner.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Not found' });
  });

  it('refuses a non-integer environment_id in Grape\'s words', async () => {
    const { status, body } = await kiln.api('GET', `${envs()}/abc`, { token: owner.token });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'environment_id is invalid' });
  });

  it('as a guest answers 403 and as a non-member 404', async () => {
    const env = await create('guarded');
    expect((await kiln.api('GET', `${envs()}/${env.id}`, { token: guest.token })).status).toBe(403);
    expect((await kiln.api('GET', `${envs()}/${env.id}`, { token: stranger.token })).body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('PUT /api/v4/projects/:id/environments/:environment_id', () => {
  it('as a developer changes only the given fields', async () => {
    const env = await create('editable', { external_url: 'https://old.example.com' });
    const { status, body } = await kiln.api('PUT', `${envs()}/${env.id}`, { token: developer.token, body: { external_url: 'https://new.example.com' } });
    expect(status).toBe(200);
    expect(body).toEqual({ ...env, external_url: 'https://new.example.com' });
  });

  it('renames without changing the slug or the tier', async () => {
    const env = await create('Renamable');
    const { status, body } = await kiln.api('PUT', `${envs()}/${env.id}`, { token: developer.token, body: { name: 'live-site' } });
    expect(status).toBe(200);
    expect(body).toEqual({ ...env, name: 'live-site' });
    expect(env).toMatchObject({ slug: 'renamable-gud4jt', tier: 'other' });
  });

  it('clears external_url with an empty string', async () => {
    const env = await create('clearable', { external_url: 'https://c.example.com' });
    const { body } = await kiln.api('PUT', `${envs()}/${env.id}`, { token: developer.token, body: { external_url: '' } });
    expect(body.external_url).toBeNull();
    expect((await kiln.api('GET', `${envs()}/${env.id}`, { token: developer.token })).body.external_url).toBeNull();
  });

  it('changes the tier', async () => {
    const env = await create('tier-change');
    expect((await kiln.api('PUT', `${envs()}/${env.id}`, { token: developer.token, body: { tier: 'staging' } })).body.tier).toBe('staging');
  });

  it('answers 200 unchanged when nothing is given', async () => {
    const env = await create('untouched');
    const { status, body } = await kiln.api('PUT', `${envs()}/${env.id}`, { token: developer.token, body: {} });
    expect(status).toBe(200);
    expect(body).toEqual(env);
  });

  it('refuses a name another environment has', async () => {
    await create('taken-name');
    const env = await create('wants-name');
    const { status, body } = await kiln.api('PUT', `${envs()}/${env.id}`, { token: developer.token, body: { name: 'taken-name' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { name: ['has already been taken'] } });
  });

  it('keeps the old slug taken after a rename, so the old name cannot come back', async () => {
    const env = await create('collide');
    await kiln.api('PUT', `${envs()}/${env.id}`, { token: developer.token, body: { name: 'moved-away' } });
    const { status, body } = await kiln.api('POST', envs(), { token: developer.token, body: { name: 'collide' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { slug: ['has already been taken'] } });
  });

  it('keeps its own name without complaint', async () => {
    const env = await create('same-name');
    expect((await kiln.api('PUT', `${envs()}/${env.id}`, { token: developer.token, body: { name: 'same-name', tier: 'other' } })).status).toBe(200);
  });

  it('refuses an invalid name and an invalid URL together', async () => {
    const env = await create('will-fail');
    const { status, body } = await kiln.api('PUT', `${envs()}/${env.id}`, { token: developer.token, body: { name: '/x', external_url: 'gopher://x' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { name: [NAME_FORMAT], external_url: ['is blocked: Only allowed schemes are http, https'] } });
  });

  it('refuses a slug parameter', async () => {
    const env = await create('slug-put');
    expect((await kiln.api('PUT', `${envs()}/${env.id}`, { token: developer.token, body: { slug: 'x' } })).body).toEqual({ error: 'slug is automatically generated and cannot be changed' });
  });

  it('answers 404 Not found for an unknown environment', async () => {
    const { status, body } = await kiln.api('PUT', `${envs()}/999999`, { token: developer.token, body: { name: 'x' } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Not found' });
  });

  it('as a reporter answers 403', async () => {
    const env = await create('reporter-put');
    expect((await kiln.api('PUT', `${envs()}/${env.id}`, { token: reporter.token, body: { name: 'x' } })).status).toBe(403);
  });
});

describe('POST /api/v4/projects/:id/environments/:environment_id/stop', () => {
  it('as a developer answers 200 with state stopped, and again when already stopped', async () => {
    const env = await create('stoppable');
    const first = await stop(env.id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...env, state: 'stopped' });
    const second = await stop(env.id);
    expect(second.status).toBe(200);
    expect(second.body.state).toBe('stopped');
  });

  it('accepts go-gitlab\'s empty JSON body', async () => {
    const env = await create('empty-body-stop');
    const response = await kiln.request('POST', `/api/v4${envs()}/${env.id}/stop`, { token: developer.token, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).state).toBe('stopped');
  });

  it('as a reporter answers 200 and leaves the environment available, as GitLab does', async () => {
    const env = await create('reporter-stop');
    const { status, body } = await kiln.api('POST', `${envs()}/${env.id}/stop`, { token: reporter.token });
    expect(status).toBe(200);
    expect(body.state).toBe('available');
  });

  it('as a guest answers 403', async () => {
    const env = await create('guest-stop');
    expect((await kiln.api('POST', `${envs()}/${env.id}/stop`, { token: guest.token })).status).toBe(403);
  });

  it('answers 404 for an environment that does not exist', async () => {
    const { status, body } = await stop(999999);
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Not found' });
  });
});

describe('DELETE /api/v4/projects/:id/environments/:environment_id', () => {
  it('as a developer answers 403 while the environment is available', async () => {
    const env = await create('running-env');
    const { status, body } = await kiln.api('DELETE', `${envs()}/${env.id}`, { token: developer.token });
    expect(status).toBe(403);
    expect(body).toEqual({ message: '403 Forbidden' });
  });

  it('as a developer deletes a stopped environment with 204 and no body, taking its deployments along', async () => {
    const env = await create('doomed');
    const deployment = await deploy('doomed');
    await stop(env.id);
    const response = await kiln.request('DELETE', `/api/v4${envs()}/${env.id}`, { token: developer.token, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await kiln.api('GET', `${envs()}/${env.id}`, { token: developer.token })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${project.id}/deployments/${deployment.id}`, { token: developer.token })).status).toBe(404);
  });

  it('answers 404 for an environment that does not exist', async () => {
    const { status, body } = await kiln.api('DELETE', `${envs()}/999999`, { token: developer.token, body: {} });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Not found' });
  });

  it('as a reporter answers 403 even when stopped', async () => {
    const env = await create('reporter-delete');
    await stop(env.id);
    expect((await kiln.api('DELETE', `${envs()}/${env.id}`, { token: reporter.token })).status).toBe(403);
  });

  it('answers 412 when the environment changed after If-Unmodified-Since', async () => {
    const env = await create('precondition');
    const before = new Date(kiln.clock.now() - 60_000).toUTCString();
    await stop(env.id);
    const refused = await kiln.api('DELETE', `${envs()}/${env.id}`, { token: developer.token, headers: { 'if-unmodified-since': before } });
    expect(refused.status).toBe(412);
    expect(refused.body).toEqual({ message: '412 Precondition Failed' });
    const after = new Date(kiln.clock.now() + 60_000).toUTCString();
    expect((await kiln.api('DELETE', `${envs()}/${env.id}`, { token: developer.token, headers: { 'if-unmodified-since': after } })).status).toBe(204);
  });
});
