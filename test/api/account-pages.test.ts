// The new project and group forms, members pages and a project's general settings (issue 16).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let newcomer: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maint');
  developer = await kiln.createUser('dev');
  newcomer = await kiln.createUser('newcomer');
  stranger = await kiln.createUser('stranger');
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('POST /groups/new and /projects/new', () => {
  it('creates a group, then a project in it, landing on their pages', async () => {
    const web = await signedIn(owner);
    const group = await web.post('/groups/new', { name: 'Platform <Team>', path: 'platform', visibility: 'internal', description: '' });
    expect(group.statusCode).toBe(303);
    expect(group.headers.location).toBe('/groups/platform');
    const form = await web.get('/projects/new');
    expect(form.body).toMatch(/<option value="\d+">platform<\/option>/);
    const groupId = /<option value="(\d+)">platform<\/option>/.exec(form.body)![1];
    const project = await web.post('/projects/new', { name: 'Web shop', path: '', namespace_id: groupId, visibility: 'internal', description: 'Sells <things>' });
    expect(project.statusCode).toBe(303);
    expect(project.headers.location).toBe('/platform/web-shop');
    expect(form.body).toMatch(/<input type="checkbox" id="project-readme" name="initialize_with_readme" value="1" checked>/);
    expect((await kiln.api('GET', '/projects/platform%2Fweb-shop/repository/branches', { token: owner.token })).body).toEqual([]);
    expect((await web.post('/projects/new', { name: 'Readme', path: '', namespace_id: groupId, visibility: 'internal', description: '', initialize_with_readme: '1', default_branch: 'trunk' })).statusCode).toBe(303);
    expect((await kiln.api('GET', '/projects/platform%2Freadme/repository/files/README.md/raw', { token: owner.token, query: { ref: 'trunk' } })).body).toBe('# Readme\n');
    const overview = await web.get('/platform/web-shop');
    expect(overview.statusCode).toBe(200);
    expect(overview.body).toContain('Sells &lt;things&gt;');
    expect((await web.get('/groups/platform')).body).toContain('Platform &lt;Team&gt;');
  });

  it('adds a LICENSE filled for the project and a .gitignore chosen on the form to the first commit', async () => {
    const web = await signedIn(owner);
    const form = await web.get('/projects/new');
    expect(form.body).toContain('<option value="mit">MIT License</option>');
    expect(form.body).toContain('<option value="Node">Node</option>');
    const groupId = /<option value="(\d+)">platform<\/option>/.exec(form.body)![1];
    const created = await web.post('/projects/new', { name: 'Licensed', path: '', namespace_id: groupId, visibility: 'internal', initialize_with_readme: '1', license_template: 'mit', gitignore_template: 'Node' });
    expect(created.statusCode).toBe(303);
    const tree = await kiln.api('GET', '/projects/platform%2Flicensed/repository/tree', { token: owner.token });
    expect(tree.body.map((entry: any) => entry.path).sort()).toEqual(['.gitignore', 'LICENSE', 'README.md']);
    const name = (await kiln.api('GET', '/user', { token: owner.token })).body.name;
    const license = await kiln.api('GET', '/projects/platform%2Flicensed/repository/files/LICENSE/raw', { token: owner.token, query: { ref: 'main' } });
    expect(license.body).toContain(`Copyright (c) ${new Date().getUTCFullYear()} ${name}`);
    expect((await kiln.api('GET', '/projects/platform%2Flicensed/repository/commits', { token: owner.token })).body).toHaveLength(1);
    // Without the README, the license alone makes the first commit; an unknown template makes no project.
    expect((await web.post('/projects/new', { name: 'Bare', path: '', namespace_id: groupId, visibility: 'internal', license_template: 'apache-2.0' })).statusCode).toBe(303);
    expect((await kiln.api('GET', '/projects/platform%2Fbare/repository/tree', { token: owner.token })).body.map((entry: any) => entry.path)).toEqual(['LICENSE']);
    const unknown = await web.post('/projects/new', { name: 'Odd', path: '', namespace_id: groupId, visibility: 'internal', gitignore_template: 'NoSuch' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Gitignore_template is not known');
    expect((await kiln.api('GET', '/projects/platform%2Fodd', { token: owner.token })).status).toBe(404);
  }, 60_000);

  it('shows a taken path as an error with the form filled in', async () => {
    const web = await signedIn(owner);
    const response = await web.post('/groups/new', { name: 'Again', path: 'platform', visibility: 'private' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Path has already been taken');
    expect(response.body).toContain('value="Again"');
  });

  it('refuses a project in a group the user may not create projects in', async () => {
    const web = await signedIn(stranger);
    const groups = await kiln.api('GET', '/groups/platform', { token: owner.token });
    const response = await web.post('/projects/new', { name: 'Sneaky', namespace_id: String(groups.body.id), visibility: 'private' });
    expect(response.statusCode).toBe(403);
  });
});

describe('/:project/-/project_members', () => {
  it('as the owner adds a member, changes the role and removes them', async () => {
    const web = await signedIn(owner);
    const added = await web.post('/platform/web-shop/-/project_members', { action: 'add', username: 'dev', access_level: '30' });
    expect(added.statusCode).toBe(303);
    const members = await web.get('/platform/web-shop/-/project_members');
    expect(members.body).toContain('data-user="dev"');
    const devId = String(developer.id);
    await web.post('/platform/web-shop/-/project_members', { action: 'update', user_id: devId, access_level: '40' });
    const api = await kiln.api('GET', '/projects/platform%2Fweb-shop/members', { token: owner.token });
    expect(api.body.find((member: any) => member.username === 'dev').access_level).toBe(40);
    await web.post('/platform/web-shop/-/project_members', { action: 'remove', user_id: devId });
    expect((await kiln.api('GET', '/projects/platform%2Fweb-shop/members', { token: owner.token })).body.map((m: any) => m.username)).not.toContain('dev');
  });

  it('as a developer shows the members without forms and refuses adding (403)', async () => {
    const project = await kiln.api('GET', '/projects/platform%2Fweb-shop', { token: owner.token });
    await kiln.addMember(owner, 'projects', project.body.id, developer, 30);
    const web = await signedIn(developer);
    const page = await web.get('/platform/web-shop/-/project_members');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('id="add-member"');
    expect((await web.post('/platform/web-shop/-/project_members', { action: 'add', username: 'newcomer', access_level: '10' })).statusCode).toBe(403);
  });

  it('tells an unknown username apart', async () => {
    const response = await (await signedIn(owner)).post('/platform/web-shop/-/project_members', { action: 'add', username: 'nobody', access_level: '10' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('No user has that username.');
  });
});

describe('/groups/:path/-/group_members', () => {
  it('as the owner adds a group member; outsiders get 404', async () => {
    const web = await signedIn(owner);
    expect((await web.post('/groups/platform/-/group_members', { action: 'add', username: 'maint', access_level: '40' })).statusCode).toBe(303);
    expect((await web.get('/groups/platform/-/group_members')).body).toContain('data-user="maint"');
    const outsider = await kiln.createGroup(owner, 'secret');
    expect((await (await signedIn(newcomer)).get(`/groups/${outsider.path}/-/group_members`)).statusCode).toBe(404);
  });
});

describe('/:project/edit', () => {
  it('as a maintainer renames and changes the description, without the delete form', async () => {
    const web = await signedIn(maintainer);
    const form = await web.get('/platform/web-shop/edit');
    expect(form.statusCode).toBe(200);
    expect(form.body).not.toContain('id="delete-project"');
    const saved = await web.post('/platform/web-shop/edit', { action: 'update', name: 'Web Shop 2', description: 'New **words**', visibility: 'internal' });
    expect(saved.statusCode).toBe(303);
    const api = await kiln.api('GET', '/projects/platform%2Fweb-shop', { token: owner.token });
    expect(api.body).toMatchObject({ name: 'Web Shop 2', description: 'New **words**' });
    expect((await web.post('/platform/web-shop/edit', { action: 'delete', confirm_path: 'platform/web-shop' })).statusCode).toBe(403);
  });

  it('as a developer answers 403', async () => {
    expect((await (await signedIn(developer)).get('/platform/web-shop/edit')).statusCode).toBe(403);
  });

  it('as the owner deletes after typing the path', async () => {
    const web = await signedIn(owner);
    expect((await web.post('/platform/web-shop/edit', { action: 'delete', confirm_path: 'wrong' })).statusCode).toBe(400);
    const deleted = await web.post('/platform/web-shop/edit', { action: 'delete', confirm_path: 'platform/web-shop' });
    expect(deleted.statusCode).toBe(303);
    expect((await kiln.api('GET', '/projects/platform%2Fweb-shop', { token: owner.token })).status).toBe(404);
  });
});
