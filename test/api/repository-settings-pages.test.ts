// Settings › Repository (issue 35): protected branches and tags protected and unprotected from the
// page, with the API's rules and messages, the tags page marking and guarding protected tags, and
// the page and its forms refused to those who do not administer the project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { TAG_MESSAGES } from '../../src/repositories/protected-branches/tag-check.js';

let kiln: TestKiln;
let work: string;
let owner: TestUser;
let developer: TestUser;
let project: any;
let web: WebSession;
let asDeveloper: WebSession;
const SETTINGS = '/owner/shelf/-/settings/repository';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-repo-settings-'));
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('developer');
  project = (await kiln.api('POST', '/projects', { token: owner.token, body: { name: 'shelf', initialize_with_readme: true } })).body;
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  web = new WebSession(kiln);
  await web.signIn(owner.username, owner.password);
  asDeveloper = new WebSession(kiln);
  await asDeveloper.signIn(developer.username, developer.password);
});
afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('GET /:project/-/settings/repository', () => {
  it('lists the default branch GitLab protects on the first push, and no protected tag', async () => {
    const response = await web.get(SETTINGS);
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/data-protected-branch="main"><td><code>main<\/code><\/td><td>Maintainers<\/td><td>Maintainers<\/td><td>Not allowed<\/td>/);
    expect(response.body).toContain('No tag is protected.');
    expect(response.body).toContain(`href="${SETTINGS}" aria-current="page"`);
  });

  it('answers 403 to a developer, and refuses their forms', async () => {
    expect((await asDeveloper.get(SETTINGS)).statusCode).toBe(403);
    expect((await asDeveloper.post('/owner/shelf/-/protected_tags', { name: 'x', create_access_level: '30' }, { csrfFrom: '/owner/shelf/-/tags' })).statusCode).toBe(403);
    expect((await asDeveloper.post('/owner/shelf/-/protected_branches/delete', { name: 'main' }, { csrfFrom: '/owner/shelf/-/tags' })).statusCode).toBe(403);
  });
});

describe('protecting from the settings page', () => {
  it('protects a branch wildcard with its levels, and says why a second time is refused', async () => {
    const form = { name: 'release/*', push_access_level: '0', merge_access_level: '30', allow_force_push: '1' };
    const created = await web.post('/owner/shelf/-/protected_branches', form, { csrfFrom: SETTINGS });
    expect([created.statusCode, created.headers.location]).toEqual([303, SETTINGS]);
    const rule = (await kiln.api('GET', `/projects/${project.id}/protected_branches/${encodeURIComponent('release/*')}`, { token: owner.token })).body;
    expect([rule.push_access_levels[0].access_level, rule.merge_access_levels[0].access_level, rule.allow_force_push]).toEqual([0, 30, true]);
    await web.post('/owner/shelf/-/protected_branches', form, { csrfFrom: SETTINGS });
    expect((await web.get(SETTINGS)).body).toContain('Protected branch &#39;release/*&#39; already exists');
  });

  it('refuses a level the form does not offer instead of storing it', async () => {
    await web.post('/owner/shelf/-/protected_tags', { name: 'odd', create_access_level: '20' }, { csrfFrom: SETTINGS });
    expect((await kiln.api('GET', `/projects/${project.id}/protected_tags/odd`, { token: owner.token })).status).toBe(404);
  });

  it('protects a tag wildcard, which the tags page then marks and guards', async () => {
    expect((await web.post('/owner/shelf/-/protected_tags', { name: 'v*', create_access_level: '40' }, { csrfFrom: SETTINGS })).statusCode).toBe(303);
    expect((await web.get(SETTINGS)).body).toMatch(/data-protected-tag="v\*"><td><code>v\*<\/code><\/td><td>Maintainers<\/td>/);
    expect((await web.post('/owner/shelf/-/tags/new', { tag_name: 'v1', ref: 'main', message: '' }, { csrfFrom: '/owner/shelf/-/tags/new' })).statusCode).toBe(303);
    const tags = (await web.get('/owner/shelf/-/tags')).body;
    expect(tags).toMatch(/data-tag="v1">[\s\S]*?<span class="badge">protected<\/span>/);
    expect(tags).toContain('aria-label="Delete the tag v1"');
    // A developer may manage tags, but not this one: no button, and the push's refusal if posted anyway.
    const developerTags = (await asDeveloper.get('/owner/shelf/-/tags')).body;
    expect(developerTags).not.toContain('aria-label="Delete the tag v1"');
    await asDeveloper.post('/owner/shelf/-/tags/delete', { name: 'v1' }, { csrfFrom: '/owner/shelf/-/tags' });
    expect((await asDeveloper.get('/owner/shelf/-/tags')).body).toContain(TAG_MESSAGES.deleteProtectedTag);
    const refused = await asDeveloper.post('/owner/shelf/-/tags/new', { tag_name: 'v2', ref: 'main', message: '' }, { csrfFrom: '/owner/shelf/-/tags/new' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(TAG_MESSAGES.createProtectedTag);
    // A maintainer deletes it from the web, which git alone may not.
    expect((await web.post('/owner/shelf/-/tags/delete', { name: 'v1' }, { csrfFrom: '/owner/shelf/-/tags' })).statusCode).toBe(303);
    expect((await web.get('/owner/shelf/-/tags')).body).not.toContain('data-tag="v1"');
  });

  it('unprotects the tag and the branch', async () => {
    await web.post('/owner/shelf/-/protected_tags/delete', { name: 'v*' }, { csrfFrom: SETTINGS });
    await web.post('/owner/shelf/-/protected_branches/delete', { name: 'release/*' }, { csrfFrom: SETTINGS });
    const body = (await web.get(SETTINGS)).body;
    expect(body).toContain('No tag is protected.');
    expect(body).not.toContain('data-protected-branch="release/*"');
    expect((await kiln.api('GET', `/projects/${project.id}/protected_tags`, { token: owner.token })).body).toEqual([]);
  });
});
