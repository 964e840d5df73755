// Every user-controlled field the new pages show (issue 16), set to markup: the pages carry it as
// text. Names and descriptions of users, groups, projects, environments; issue titles and notes; the
// group's settings, board and issues, and Explore (issue 36).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

const EVIL = '<script>alert(1)</script><img src=x onerror=alert(2)>';

let kiln: TestKiln;
let owner: TestUser;
let web: WebSession;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  const root = kiln.root;
  await kiln.api('PUT', `/users/${owner.id}`, { token: root.token, body: { name: `Evil ${EVIL}`, bio: `Bio ${EVIL}`, location: `Loc ${EVIL}` } });
  const group = await kiln.createGroup(owner, 'team');
  await kiln.api('PUT', `/groups/${group.id}`, { token: owner.token, body: { name: `Team ${EVIL}`, description: `[link](javascript:alert(3)) ${EVIL}` } });
  const project = await kiln.createProject(owner, 'shop', { namespace_id: group.id });
  await kiln.api('PUT', `/projects/${project.id}`, { token: owner.token, body: { name: 'Shop x', description: `[link](javascript:alert(3)) ${EVIL}` } });
  await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: `Title ${EVIL}`, description: `<a href="javascript:alert(4)">x</a> ${EVIL}` } });
  await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: { body: `Note ${EVIL} [y](javascript:alert(5))` } });
  await kiln.api('POST', `/projects/${project.id}/environments`, { token: owner.token, body: { name: 'prod' } });
  web = new WebSession(kiln);
  await web.signIn(owner.username, 'password' in owner ? owner.password : '');
});
afterAll(() => kiln.close());

function expectInert(body: string) {
  expect(body).not.toContain('<script>alert');
  expect(body).not.toMatch(/<img[^>]*onerror/i);
  expect(body).not.toMatch(/href="\s*javascript:/i);
}

describe('pages with markup in every user-controlled field', () => {
  for (const path of ['/', '/owner', '/groups/team', '/team/shop', '/team/shop/-/issues', '/team/shop/-/issues/1', '/team/shop/-/project_members', '/team/shop/activity', '/dashboard/activity', '/team/shop/-/environments', '/team/shop/edit', '/groups/team/-/group_members', '/groups/team/-/edit', '/groups/team/-/boards', '/groups/team/-/issues', '/explore/projects', '/explore/groups']) {
    it(`GET ${path} shows it as text`, async () => {
      const response = await web.get(path);
      expect(response.statusCode).toBe(200);
      expectInert(response.body);
    });
  }

  it('shows the escaped name where the user is named', async () => {
    expect((await web.get('/owner')).body).toContain('Evil &lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
