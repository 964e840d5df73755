// A group's settings page (issue 36): /groups/<group>/-/edit for its Owners — name, path, description,
// visibility, request access and avatar through PUT /groups/:id's own rules, each refusal next to its
// field with what was typed kept; deleting confirmed by typing the path; CSRF-checked; text escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { csrfTokenOf, WebSession } from '../helpers/browser-session.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let maintainer: TestUser;
let stranger: TestUser;
let group: any;
const XSS = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maintainer');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'team', { visibility: 'private' });
  await kiln.addMember(owner, 'groups', group.id, maintainer, ACCESS.maintainer);
  await kiln.createGroup(owner, 'taken');
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

async function read() {
  return (await kiln.api('GET', `/groups/${group.id}`, { token: owner.token })).body;
}

const EDIT = () => `/groups/${group.full_path}/-/edit`;

describe('GET /groups/<group>/-/edit', () => {
  it('shows Owners the form, with the group nav entry; Maintainers are refused, strangers see nothing', async () => {
    const page = await (await signedIn(owner)).get(EDIT());
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="group-settings"');
    expect(page.body).toContain('name="request_access_enabled" value="1" checked');
    expect(page.body).toContain('id="delete-group"');
    expect(page.body).toContain('<a href="/groups/team/-/edit" aria-current="page">General settings</a>');
    const asMaintainer = await signedIn(maintainer);
    expect((await asMaintainer.get(EDIT())).statusCode).toBe(403);
    expect((await asMaintainer.get('/groups/team')).body).not.toContain('General settings');
    expect((await (await signedIn(stranger)).get(EDIT())).statusCode).toBe(404);
    expect((await kiln.request('GET', EDIT())).statusCode).toBe(302);
  });
});

describe('GET /groups/<group>/-/edit with restricted visibility levels', () => {
  it('offers a restricted level disabled to Owners, and enabled to administrators', async () => {
    expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { restricted_visibility_levels: ['public'] } })).status).toBe(200);
    try {
      const page = (await (await signedIn(owner)).get(EDIT())).body;
      expect(page).toContain('id="visibility-public" name="visibility" value="public" disabled> <label for="visibility-public">Public</label> <span class="muted">Restricted by your administrator.</span>');
      expect(page).toContain('id="visibility-internal" name="visibility" value="internal">');
      const asAdmin = (await (await signedIn(kiln.root)).get(EDIT())).body;
      expect(asAdmin).toContain('id="visibility-public" name="visibility" value="public">');
    } finally {
      await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { restricted_visibility_levels: [] } });
    }
  });
});

describe('POST /groups/<group>/-/edit', () => {
  it('saves name, description, visibility and request access through the API’s rules; text is escaped', async () => {
    const web = await signedIn(owner);
    const saved = await web.post(EDIT(), { action: 'update', name: `Team ${XSS}`, path: 'team', description: `About ${XSS}`, visibility: 'internal' });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/groups/team/-/edit');
    expect(await read()).toMatchObject({ name: `Team ${XSS}`, description: `About ${XSS}`, visibility: 'internal', request_access_enabled: false });
    const page = (await web.get(EDIT())).body;
    expect(page).toContain('value="Team &lt;img src=x onerror=alert(1)&gt;"');
    expect(page).toContain('About &lt;img src=x onerror=alert(1)&gt;</textarea>');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('was successfully updated.');
    await web.post(EDIT(), { action: 'update', name: 'Team', path: 'team', description: '', visibility: 'internal', request_access_enabled: '1' });
    expect(await read()).toMatchObject({ name: 'Team', request_access_enabled: true });
  });

  it('shows each refusal next to its field, keeping what was typed', async () => {
    const web = await signedIn(owner);
    const taken = await web.post(EDIT(), { action: 'update', name: '', path: 'taken', description: 'typed text', visibility: 'internal' });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('id="group-name" name="name" value="" required maxlength="255" aria-invalid="true" aria-describedby="name-error"');
    expect(taken.body).toContain('<p class="field-error" id="name-error">Name can&#39;t be blank</p>');
    expect(taken.body).toContain('typed text</textarea>');
    const clash = await web.post(EDIT(), { action: 'update', name: 'Team', path: 'taken', description: '', visibility: 'internal' });
    expect(clash.statusCode).toBe(400);
    expect(clash.body).toMatch(/aria-invalid="true" aria-describedby="path-error"><p class="field-error" id="path-error">Path [^<]*taken/);
    const project = await kiln.createProject(owner, 'app', { namespace_id: group.id, visibility: 'internal' });
    const narrower = await web.post(EDIT(), { action: 'update', name: 'Team', path: 'team', description: '', visibility: 'private' });
    expect(narrower.statusCode).toBe(400);
    expect(narrower.body).toContain('id="visibility_level-error"');
    expect((await read()).visibility).toBe('internal');
    await kiln.api('DELETE', `/projects/${project.id}`, { token: owner.token });
  });

  it('takes an avatar as multipart, refuses other files next to the field, and removes it', async () => {
    const web = await signedIn(owner);
    const token = csrfTokenOf((await web.get(EDIT())).body);
    const send = async (avatar: { filename: string; data: Buffer }, extra: Record<string, string> = {}) => {
      const body = await multipart({ authenticity_token: token, action: 'update', name: 'Team', path: 'team', description: '', visibility: 'internal', request_access_enabled: '1', ...extra, avatar });
      return kiln.app.inject({ method: 'POST', url: EDIT(), headers: { cookie: web.cookie, 'content-type': body.contentType }, payload: body.payload });
    };
    expect((await send({ filename: 'logo.png', data: TINY_PNG })).statusCode).toBe(303);
    expect((await read()).avatar_url).toMatch(/\/uploads\/-\/system\/group\/avatar\/\d+\/logo\.png$/);
    const page = (await web.get(EDIT())).body;
    expect(page).toMatch(/<img src="\/uploads\/-\/system\/group\/avatar\/\d+\/logo.png" alt="The current avatar"/);
    const refused = await send({ filename: 'script.svg', data: Buffer.from('<svg/>') });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('id="avatar-error"');
    expect(refused.body).toContain('You are not allowed to upload &quot;svg&quot; files');
    expect((await send({ filename: '', data: Buffer.alloc(0) }, { remove_avatar: '1' })).statusCode).toBe(303);
    expect((await read()).avatar_url).toBeNull();
  });

  it('moves the group to a new path and sends the Owner there; the old address redirects', async () => {
    const web = await signedIn(owner);
    const moved = await web.post(EDIT(), { action: 'update', name: 'Team', path: 'crew', description: '', visibility: 'internal', request_access_enabled: '1' });
    expect(moved.headers.location).toBe('/groups/crew/-/edit');
    group = await read();
    expect(group.full_path).toBe('crew');
    expect((await web.get('/groups/crew/-/edit')).statusCode).toBe(200);
  });

  it('refuses a post without the CSRF token and one from a Maintainer', async () => {
    const refused = await (await signedIn(owner)).post(EDIT(), { authenticity_token: 'forged', action: 'update', name: 'Forged', path: 'crew' });
    expect(refused.statusCode).toBe(422);
    const asMaintainer = await signedIn(maintainer);
    const token = csrfTokenOf((await asMaintainer.get('/groups/crew')).body);
    expect((await asMaintainer.post(EDIT(), { authenticity_token: token, action: 'delete', confirm_path: 'crew' })).statusCode).toBe(403);
    expect((await read()).name).toBe('Team');
  });

  it('deletes only when the path is typed exactly, as DELETE /groups/:id does', async () => {
    const web = await signedIn(owner);
    const wrong = await web.post(EDIT(), { action: 'delete', confirm_path: 'Crew' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('<p class="field-error" id="confirm_path-error">Enter crew exactly to delete the group.</p>');
    expect((await read()).marked_for_deletion_on).toBeNull();
    const deleted = await web.post(EDIT(), { action: 'delete', confirm_path: 'crew' });
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe('/');
    expect((await kiln.api('DELETE', `/groups/${group.id}`, { token: owner.token })).body).toEqual({ message: '400 Bad request - Group has been already marked for deletion' });
  });
});
