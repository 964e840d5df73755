// The maintainers' settings page, driven through inject with a browser-like session (the real-browser
// test is test/browser/error-tracking.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let stranger: TestUser;
let path: string;

const API_URL = 'https://sentry.example.com/api/0/projects/acme/web-shop/';

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('dev');
  stranger = await kiln.createUser('stranger');
  const group = await kiln.createGroup(owner, 'team');
  const sub = await kiln.createGroup(owner, 'backend', { parent_id: group.id });
  const project = await kiln.createProject(owner, 'shop', { namespace_id: sub.id });
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
  path = `/${project.path_with_namespace}/-/settings/error_tracking`;
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('GET /:full_path/-/settings/error_tracking', () => {
  it('sends anonymous visitors to sign in', async () => {
    const response = await kiln.request('GET', path);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/users/sign_in?return_to=${encodeURIComponent(path)}`);
  });

  it('as a maintainer shows an empty form for a project in nested groups', async () => {
    const response = await (await signedIn(owner)).get(path);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('name="api_url"');
    expect(response.body).toContain('name="authenticity_token"');
  });

  it('as a developer answers 403 and as a non-member 404', async () => {
    expect((await (await signedIn(developer)).get(path)).statusCode).toBe(403);
    expect((await (await signedIn(stranger)).get(path)).statusCode).toBe(404);
  });
});

describe('POST /:full_path/-/settings/error_tracking', () => {
  it('as a maintainer saves the settings, seals the token and never shows it back', async () => {
    const web = await signedIn(owner);
    const saved = await web.post(path, { active: '1', api_url: API_URL, token: 'page-secret-token', project_name: '' });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(path);
    const shown = await web.get(path);
    expect(shown.body).toContain('Error tracking settings saved.');
    expect(shown.body).toContain('Web Shop');
    expect(shown.body).not.toContain('page-secret-token');
    const api = await kiln.api('GET', `/projects/${encodeURIComponent(path.slice(1, -'/-/settings/error_tracking'.length))}/error_tracking/settings`, { token: owner.token });
    expect(api.body).toMatchObject({ active: true, api_url: API_URL, project_name: 'Web Shop', tracker_external_url: 'https://sentry.example.com/acme/web-shop/' });
  });

  it('keeps the stored token when the field is left blank, and disables when unchecked', async () => {
    const web = await signedIn(owner);
    const saved = await web.post(path, { api_url: API_URL, token: '' });
    expect(saved.statusCode).toBe(303);
    const row = await kiln.deps.db.selectFrom('error_tracking_settings').selectAll().executeTakeFirstOrThrow();
    expect(row.enabled).toBe(0);
    expect(kiln.deps.box.open(row.token_sealed as string)).toBe('page-secret-token');
  });

  it('shows the validation messages and keeps what was typed', async () => {
    const web = await signedIn(owner);
    const response = await web.post(path, { active: '1', api_url: 'http://localhost/api/0/projects/a/b/', token: 'x' });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('api url is blocked: Requests to localhost are not allowed');
    expect(response.body).toContain('value="http://localhost/api/0/projects/a/b/"');
  });

  it('escapes what it shows', async () => {
    const web = await signedIn(owner);
    await web.post(path, { active: '', api_url: API_URL, project_name: '<script>alert(1)</script>' });
    const shown = await web.get(path);
    expect(shown.body).not.toContain('<script>alert(1)</script>');
    expect(shown.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('refuses a form without the CSRF token', async () => {
    const web = await signedIn(owner);
    const response = await web.post(path, { authenticity_token: 'forged', active: '1' });
    expect(response.statusCode).toBe(422);
  });

  it('as a developer answers 403 and changes nothing', async () => {
    const before = await kiln.deps.db.selectFrom('error_tracking_settings').selectAll().executeTakeFirstOrThrow();
    const web = await signedIn(developer);
    const response = await web.post(path, { active: '1', api_url: 'https://other.example.com/api/0/projects/x/y/', token: 't' }, { csrfFrom: '/' });
    expect(response.statusCode).toBe(403);
    expect(await kiln.deps.db.selectFrom('error_tracking_settings').selectAll().executeTakeFirstOrThrow()).toEqual(before);
  });
});
