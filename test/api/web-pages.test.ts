// The pages behind the API's web_urls (issue 16), driven through inject with a browser-like session:
// project overview, issues and incidents, groups, users, activity; styled 404 and 403 pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;
let group: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'team');
  project = await kiln.createProject(owner, 'shop', { namespace_id: group.id });
  await kiln.api('PUT', `/projects/${project.id}`, { token: owner.token, body: { description: 'The **shop** <script>alert(1)</script>' } });
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('the site layout', () => {
  it('as a signed-in user has the top bar with search, the user menu and sign out', async () => {
    const response = await (await signedIn(owner)).get('/');
    expect(response.body).toContain('role="search"');
    expect(response.body).toContain('href="/owner">Your profile');
    expect(response.body).toContain('action="/users/sign_out"');
    expect(response.body).toContain('<script src="/-/assets/kiln.js" defer></script>');
    expect(response.body).not.toContain('href="/admin/repository_storages"');
  });

  it('serves the script as JavaScript from its own origin', async () => {
    const response = await kiln.request('GET', '/-/assets/kiln.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/javascript');
  });

  it('links the home page to the projects, not to their alert lists', async () => {
    const response = await (await signedIn(owner)).get('/');
    expect(response.body).toContain('href="/team/shop"');
    expect(response.body).not.toContain('alert_management');
  });

  it('searches projects from the top bar', async () => {
    const web = await signedIn(stranger);
    expect((await web.get('/?search=shop')).body).not.toContain('href="/team/shop"');
    expect((await (await signedIn(reporter)).get('/?search=sho')).body).toContain('href="/team/shop"');
  });
});

describe('pages that do not exist', () => {
  it('answer a styled 404 page in the layout, with the user menu', async () => {
    const response = await (await signedIn(owner)).get('/-/no/such/page');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<h1>Page not found</h1>');
    expect(response.body).toContain('href="/owner">Your profile');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('ask anonymous visitors of unknown namespace paths to sign in, as GitLab does', async () => {
    const response = await kiln.request('GET', '/nobody-here/nothing');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/users/sign_in?return_to=${encodeURIComponent('/nobody-here/nothing')}`);
    const other = await kiln.request('GET', '/-/nothing/here');
    expect(other.statusCode).toBe(404);
    expect(other.body).toContain('<h1>Page not found</h1>');
  });

  it('keep JSON for the API and plain text for git paths', async () => {
    const api = await kiln.request('GET', '/api/v4/no_such_thing');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: '404 Not Found' });
    const git = await kiln.request('GET', '/team/nothing.git/info/refs?service=git-upload-pack');
    expect(git.headers['content-type'] ?? '').not.toContain('text/html');
    const lfs = await kiln.request('GET', '/team/nothing.git/no-such-endpoint');
    expect(lfs.statusCode).toBe(404);
    expect(lfs.headers['content-type']).toContain('text/plain');
  });
});

describe('pages declaring an instance ability', () => {
  it('as a user without it answer the 404 page for the admin area, which GitLab does not reveal (the admin storage page)', async () => {
    const response = await (await signedIn(owner)).get('/admin/repository_storages');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<h1>Page not found</h1>');
  });

  it('as an administrator show the page', async () => {
    const admin = await kiln.createUser('admin1', { admin: true });
    expect((await (await signedIn(admin)).get('/admin/repository_storages')).statusCode).toBe(200);
  });
});

describe('GET /:namespace/:project', () => {
  it('as a reporter shows the overview: Markdown description made inert, visibility, clone URL, sidebar', async () => {
    const response = await (await signedIn(reporter)).get('/team/shop');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<strong>shop</strong>');
    expect(response.body).not.toContain('<script>alert(1)');
    expect(response.body).toContain('value="http://kiln.test/team/shop.git"');
    expect(response.body).toContain('data-copy="clone-url"');
    expect(response.body).toContain('<title>shop · Kiln</title>');
    expect(response.body).toContain('href="/team/shop/-/issues">Issues');
    expect(response.body).toContain('The repository has no README yet');
    // Reporters hold no settings: no link to pages that would answer 403.
    expect(response.body).not.toContain('href="/team/shop/edit"');
  });

  it('as a guest of a private project leaves out the repository', async () => {
    const response = await (await signedIn(guest)).get('/team/shop');
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('clone-url');
  });

  it('as a non-member answers 404, and anonymous visitors are asked to sign in', async () => {
    expect((await (await signedIn(stranger)).get('/team/shop')).statusCode).toBe(404);
    const anonymous = await kiln.request('GET', '/team/shop');
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe(`/users/sign_in?return_to=${encodeURIComponent('/team/shop')}`);
  });

  it('sends a group path to its group page and shows a user at /:username', async () => {
    const web = await signedIn(owner);
    const groupPath = await web.get('/team');
    expect(groupPath.statusCode).toBe(302);
    expect(groupPath.headers.location).toBe('/groups/team');
    const profile = await web.get('/reporter');
    expect(profile.statusCode).toBe(200);
    expect(profile.body).toContain('@reporter');
  });
});

describe('GET /groups/:path', () => {
  it('as a member lists its projects', async () => {
    const response = await (await signedIn(owner)).get('/groups/team');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('href="/team/shop"');
    expect(response.body).toContain('New subgroup');
  });

  it('as a non-member of a private group answers 404', async () => {
    expect((await (await signedIn(stranger)).get('/groups/team')).statusCode).toBe(404);
  });
});
