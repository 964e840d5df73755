// Settings › Badges pages (issue 38): a project's Maintainer and a group's Owner add a badge (with a
// preview of its placeholders first), edit and delete it; the project's page shows its groups'
// badges without forms; a blocked URL is shown as the field's error; a Developer gets no page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let project: any;
let group: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('dev');
  group = await kiln.createGroup(owner, 'acme');
  project = await kiln.createProject(owner, 'shop', { namespace_id: group.id });
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
});
afterAll(() => kiln?.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('/<project>/-/settings/badges and /groups/<group>/-/settings/badges', () => {
  it('previews, adds, edits and deletes badges; group badges show on the project page without forms', async () => {
    const web = await signedIn(owner);
    const groupPage = '/groups/acme/-/settings/badges';
    expect((await web.post(groupPage, { action: 'create', name: 'Docs', link_url: 'https://docs.example/%{project_path}', image_url: 'https://img.example/docs.svg' })).statusCode).toBe(303);
    const self = '/acme/shop/-/settings/badges';
    const empty = await web.get(self);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('href="/acme/shop/-/settings/badges" aria-current="page"');
    const previewed = await web.post(self, { action: 'preview', name: 'Build', link_url: 'https://ci.example/%{project_path}/%{default_branch}', image_url: 'https://ci.example/%{project_id}.svg' });
    expect(previewed.statusCode).toBe(200);
    expect(previewed.body).toContain(`href="https://ci.example/acme/shop/main"`);
    expect(previewed.body).toContain(`src="https://ci.example/${project.id}.svg"`);
    expect(previewed.body).toContain('value="https://ci.example/%{project_path}/%{default_branch}"');
    expect((await web.post(self, { action: 'create', name: 'Build', link_url: 'https://ci.example/%{project_path}', image_url: 'https://ci.example/b.svg' })).statusCode).toBe(303);
    const listed = (await kiln.api('GET', `/projects/${project.id}/badges`, { token: owner.token })).body;
    expect(listed.map((badge: any) => [badge.name, badge.kind])).toEqual([['Docs', 'group'], ['Build', 'project']]);
    const build = listed.find((badge: any) => badge.kind === 'project');
    const page = await web.get(self);
    expect(page.body).toContain('href="https://docs.example/acme/shop"');
    expect(page.body).toContain("Set on the group: change it in the group's settings.");
    expect(page.body.match(/name="action" value="delete"/g)).toHaveLength(1);
    expect((await web.post(self, { action: 'update', badge_id: String(build.id), name: 'CI', link_url: 'https://ci.example/x', image_url: 'https://ci.example/c.svg' })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/badges/${build.id}`, { token: owner.token })).body).toMatchObject({ name: 'CI', link_url: 'https://ci.example/x' });
    const docs = listed.find((badge: any) => badge.kind === 'group');
    expect((await web.post(self, { action: 'delete', badge_id: String(docs.id) })).statusCode).toBe(404);
    expect((await web.post(self, { action: 'delete', badge_id: String(build.id) })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/badges`, { token: owner.token })).body.map((badge: any) => badge.kind)).toEqual(['group']);
    expect((await web.post(groupPage, { action: 'delete', badge_id: String(docs.id) })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/groups/${group.id}/badges`, { token: owner.token })).body).toEqual([]);
  }, 60_000);

  it('shows a refused URL as an error with the form kept, and gives a Developer no page', async () => {
    const web = await signedIn(owner);
    const refused = await web.post('/acme/shop/-/settings/badges', { action: 'create', name: 'Bad', link_url: 'ftp://x.example/', image_url: 'https://ok.example/i.svg' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Link is blocked');
    expect(refused.body).toContain('value="ftp://x.example/"');
    const dev = await signedIn(developer);
    expect([403, 404]).toContain((await dev.get('/acme/shop/-/settings/badges')).statusCode);
    expect([403, 404]).toContain((await dev.post('/acme/shop/-/settings/badges', { action: 'create', link_url: 'https://a.example', image_url: 'https://a.example/i.svg' })).statusCode);
  }, 60_000);
});
