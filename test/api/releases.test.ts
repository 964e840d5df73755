// Releases (issue 38): /projects/:id/releases with a new or an existing tag, Markdown notes,
// milestones, upcoming releases, asset links with direct asset paths, evidence, permalink/latest,
// group releases, who may read and write them, and the Release Hook.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { commit, repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { signedIn } from './oauth-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let receiver: HookReceiver;
let received: Received[] = [];
const base = () => `/projects/${w.project.id}/releases`;

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request));
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await commit(kiln, w.owner.token, w.project.id, { branch: 'main', commit_message: 'First', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] });
  expect((await kiln.api('POST', `/projects/${w.project.id}/repository/tags`, { token: w.owner.token, body: { tag_name: 'v0.9', ref: 'main', message: 'annotated' } })).status).toBe(201);
  expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
  const hook = await kiln.api('POST', `/projects/${w.project.id}/hooks`, { token: w.maintainer.token, body: { url: `${receiver.url}/releases`, push_events: false, releases_events: true } });
  expect([hook.status, hook.body.releases_events]).toEqual([201, true]);
  expect((await kiln.api('POST', `/projects/${w.project.id}/hooks`, { token: w.maintainer.token, body: { url: `${receiver.url}/pushes` } })).status).toBe(201);
});

afterAll(async () => {
  await kiln?.close();
  await receiver?.close();
});

beforeEach(() => {
  received = [];
});

describe('POST /api/v4/projects/:id/releases', () => {
  it('as a developer makes a release with a new tag from ref, links and milestones; the Release Hook is sent', async () => {
    const milestone = await kiln.api('POST', `/projects/${w.project.id}/milestones`, { token: w.owner.token, body: { title: 'M1' } });
    const created = await kiln.api('POST', base(), {
      token: w.developer.token,
      body: {
        tag_name: 'v1.0', ref: 'main', name: 'First release', description: '## Notes\n\n**bold**', milestones: ['M1'],
        assets: { links: [{ name: 'Linux', url: 'https://downloads.example/app-linux', direct_asset_path: '/binaries/linux', link_type: 'package' }] },
      },
    });
    expect(created.status).toBe(201);
    const web = `${kiln.deps.config.baseUrl}/${w.project.path_with_namespace}`;
    expect(created.body).toMatchObject({
      name: 'First release', tag_name: 'v1.0', description: '## Notes\n\n**bold**', upcoming_release: false,
      author: { username: w.developer.username }, commit: { title: 'First' },
      milestones: [{ id: milestone.body.id, title: 'M1', issue_stats: { total: 0, closed: 0 } }],
      tag_path: `/${w.project.path_with_namespace}/-/tags/v1.0`,
      assets: {
        count: 5,
        sources: expect.arrayContaining([{ format: 'zip', url: `${web}/-/archive/v1.0/app-v1.0.zip` }]),
        links: [{ name: 'Linux', url: 'https://downloads.example/app-linux', direct_asset_url: `${web}/-/releases/v1.0/downloads/binaries/linux`, link_type: 'package' }],
      },
      _links: { self: `${web}/-/releases/v1.0`, edit_url: `${web}/-/releases/v1.0/edit` },
    });
    expect(created.body.description_html).toBeUndefined();
    expect(created.body.evidences).toEqual([{ sha: expect.stringMatching(/^[0-9a-f]{64}$/), filepath: expect.stringMatching(new RegExp(`^${web}/-/releases/v1.0/evidences/\\d+\\.json$`)), collected_at: created.body.created_at }]);
    expect((await kiln.api('GET', `/projects/${w.project.id}/repository/tags/v1.0`, { token: w.developer.token })).status).toBe(200);
    await kiln.worker.drain();
    const hooks = received.filter((r) => r.path === '/releases' && r.body.tag === 'v1.0');
    expect(hooks).toHaveLength(1);
    expect(hooks[0].headers['x-gitlab-event']).toBe('Release Hook');
    expect(hooks[0].body).toMatchObject({ object_kind: 'release', action: 'create', tag: 'v1.0', name: 'First release', url: `${web}/-/releases/v1.0`, project: { id: w.project.id }, commit: { title: 'First' }, assets: { count: 5 } });
  });

  it('makes a release of an existing (annotated) tag, and an upcoming one without evidence', async () => {
    const existing = await kiln.api('POST', base(), { token: w.developer.token, body: { tag_name: 'v0.9' } });
    expect(existing.status).toBe(201);
    expect(existing.body).toMatchObject({ name: 'v0.9', description: '', commit: { title: 'First' } });
    const upcoming = await kiln.api('POST', base(), { token: w.developer.token, body: { tag_name: 'v2.0', ref: 'main', released_at: '2999-01-01T00:00:00Z' } });
    expect(upcoming.body).toMatchObject({ upcoming_release: true, released_at: '2999-01-01T00:00:00.000Z', evidences: [] });
  });

  it('refuses what GitLab refuses, naming it', async () => {
    const cases: Array<[Record<string, unknown>, number, unknown]> = [
      [{ tag_name: 'v1.0' }, 409, { message: 'Release already exists' }],
      [{ tag_name: 'v3.0' }, 422, { message: 'Ref is not specified' }],
      [{ tag_name: 'v3.0', ref: 'nowhere' }, 400, { message: 'Target nowhere is invalid' }],
      [{ tag_name: 'v3.0', ref: 'main', milestones: ['Nope'] }, 400, { message: 'Milestone(s) not found: Nope' }],
      [{ tag_name: 'v3.0', ref: 'main', released_at: 'tomorrow' }, 400, { error: 'released_at is invalid' }],
      [{ tag_name: 'v3.0', ref: 'main', assets: { links: [{ name: 'x', url: 'javascript:alert(1)' }] } }, 400, { message: { url: ['is blocked: Only allowed schemes are http, https, ftp'] } }],
      [{ tag_name: 'v3.0', ref: 'main', assets: { links: [{ name: 'x', url: 'https://a.example', link_type: 'binary' }] } }, 400, { error: 'assets[links][link_type] does not have a valid value' }],
      [{ tag_name: 'v3.0', ref: 'main', assets: 'links' }, 400, { error: 'assets is invalid' }],
      [{ tag_name: 'v3.0', ref: 'main', assets: { links: [{ name: 'a', url: 'https://a.example' }, { name: 'a', url: 'https://b.example' }] } }, 400, { message: { name: ['has already been taken'] } }],
      [{ tag_name: 'v3.0', ref: 'main', name: 'n'.repeat(256) }, 400, { message: { name: ['is too long (maximum is 255 characters)'] } }],
    ];
    for (const [body, status, error] of cases) {
      const answer = await kiln.api('POST', base(), { token: w.developer.token, body });
      expect([body, answer.status, answer.body]).toEqual([body, status, error]);
    }
    expect((await kiln.api('GET', `${base()}/v3.0`, { token: w.developer.token })).status).toBe(404);
    // No tag was left behind by a refused release.
    expect((await kiln.api('GET', `/projects/${w.project.id}/repository/tags/v3.0`, { token: w.developer.token })).status).toBe(404);
    expect((await kiln.api('POST', base(), { token: w.reporter.token, body: { tag_name: 'v4.0', ref: 'main' } })).status).toBe(403);
  });
});

describe('reading releases', () => {
  it('lists latest first, shows description_html on request, and redirects permalink/latest', async () => {
    const list = await kiln.api('GET', base(), { token: w.reporter.token });
    expect(list.body.map((release: any) => release.tag_name)).toEqual(['v2.0', 'v0.9', 'v1.0']);
    const byCreation = await kiln.api('GET', base(), { token: w.reporter.token, query: { order_by: 'created_at', sort: 'asc' } });
    expect(byCreation.body.map((release: any) => release.tag_name)).toEqual(['v1.0', 'v0.9', 'v2.0']);
    const one = await kiln.api('GET', `${base()}/v1.0`, { token: w.reporter.token, query: { include_html_description: 'true' } });
    expect(one.body.description_html).toContain('<strong>bold</strong>');
    expect(one.body._links.edit_url).toBeUndefined();
    const latest = await kiln.app.inject({ method: 'GET', url: `/api/v4${base()}/permalink/latest/assets/links?x=1`, headers: { 'private-token': w.reporter.token } });
    expect(latest.statusCode).toBe(302);
    expect(latest.headers.location).toBe(`${kiln.deps.config.baseUrl}/api/v4/projects/${w.project.id}/releases/v2.0/assets/links?x=1`);
  });

  it('shows a guest of the private project no tag, commit, sources or evidence; hides it all from strangers', async () => {
    const asGuest = await kiln.api('GET', `${base()}/v1.0`, { token: w.guest.token });
    expect(asGuest.status).toBe(200);
    expect(asGuest.body).toMatchObject({ name: 'First release', assets: { count: 1 } });
    expect(Object.keys(asGuest.body)).not.toEqual(expect.arrayContaining(['tag_name']));
    expect(asGuest.body.commit).toBeUndefined();
    expect(asGuest.body.evidences).toBeUndefined();
    expect((await kiln.api('GET', base(), { token: w.stranger.token })).status).toBe(404);
  });

  it('lists the releases of the group’s projects the caller can read', async () => {
    const group = await kiln.api('GET', `/groups/${w.group.id}/releases`, { token: w.owner.token });
    expect(group.status).toBe(200);
    expect(group.body.map((release: any) => release.tag_name).sort()).toEqual(['v0.9', 'v1.0', 'v2.0']);
    // The group is private: a member of its project reads it through the project (GitLab's
    // has_projects) and its releases there; a stranger does not find it.
    const asDeveloper = await kiln.api('GET', `/groups/${w.group.id}/releases`, { token: w.developer.token });
    expect(asDeveloper.body.map((release: any) => release.tag_name).sort()).toEqual(['v0.9', 'v1.0', 'v2.0']);
    expect((await kiln.api('GET', `/groups/${w.group.id}/releases`, { token: w.stranger.token })).status).toBe(404);
  });
});

describe('the releases pages', () => {
  it('shows the releases with rendered notes and links, redirects a direct asset path, serves evidence, and 404s to strangers', async () => {
    const path = `/${w.project.path_with_namespace}/-/releases`;
    const web = await signedIn(kiln, w.reporter);
    const list = await web.get(path);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('<strong>bold</strong>');
    expect(list.body).toContain('First release');
    expect(list.body).toContain('/-/releases/v1.0/downloads/binaries/linux');
    expect((await web.get(`${path}/v1.0`)).body).toContain('<h1>First release</h1>');
    const download = await web.get(`${path}/v1.0/downloads/binaries/linux`);
    expect([download.statusCode, download.headers.location]).toEqual([302, 'https://downloads.example/app-linux']);
    expect((await web.get(`${path}/v1.0/downloads/nothing`)).statusCode).toBe(404);
    const release = await kiln.api('GET', `${base()}/v1.0`, { token: w.reporter.token });
    const evidence = await web.get(new URL(release.body.evidences[0].filepath).pathname);
    expect(JSON.parse(evidence.body).release).toMatchObject({ tag_name: 'v1.0', milestones: [{ title: 'M1', issues: [] }] });
    expect((await (await signedIn(kiln, w.stranger)).get(path)).statusCode).toBe(404);
  });
});

describe('changing releases and links', () => {
  it('updates a release (milestones removed by an empty list), sends the hook, and changes nothing when nothing differs', async () => {
    const updated = await kiln.api('PUT', `${base()}/v1.0`, { token: w.developer.token, body: { name: 'Renamed', milestones: [] } });
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe('Renamed');
    expect(updated.body.milestones).toBeUndefined();
    expect((await kiln.api('PUT', `${base()}/v1.0`, { token: w.developer.token, body: { name: 'Renamed' } })).status).toBe(200);
    await kiln.worker.drain();
    expect(received.filter((r) => r.path === '/releases' && r.body.tag === 'v1.0').map((r) => [r.body.action, r.body.name])).toEqual([['update', 'Renamed']]);
  });

  it('adds, changes, lists and deletes links; duplicates and bad paths are 400s', async () => {
    const links = `${base()}/v1.0/assets/links`;
    const added = await kiln.api('POST', links, { token: w.developer.token, body: { name: 'Docs', url: 'https://docs.example/', direct_asset_path: 'docs/index', link_type: 'runbook' } });
    expect(added.status).toBe(201);
    expect(added.body.direct_asset_url).toMatch(/\/-\/releases\/v1\.0\/downloads\/docs\/index$/);
    expect((await kiln.api('POST', links, { token: w.developer.token, body: { name: 'Docs', url: 'https://other.example/' } })).body).toEqual({ message: { name: ['has already been taken'] } });
    expect((await kiln.api('POST', links, { token: w.developer.token, body: { name: 'Bad', url: 'https://bad.example/', direct_asset_path: '/../etc/' } })).body).toEqual({ message: { filepath: ['is in an invalid format'] } });
    expect((await kiln.api('POST', links, { token: w.developer.token, body: { url: 'https://bad.example/' } })).body).toEqual({ error: 'name is missing' });
    const changed = await kiln.api('PUT', `${links}/${added.body.id}`, { token: w.developer.token, body: { name: 'Manual', link_type: 'other' } });
    expect(changed.body).toMatchObject({ id: added.body.id, name: 'Manual', link_type: 'other', url: 'https://docs.example/' });
    expect((await kiln.api('GET', links, { token: w.reporter.token })).body.map((link: any) => link.name)).toEqual(['Manual', 'Linux']);
    expect((await kiln.api('GET', `${links}/${added.body.id}`, { token: w.reporter.token })).body.name).toBe('Manual');
    expect((await kiln.api('DELETE', `${links}/${added.body.id}`, { token: w.reporter.token })).status).toBe(403);
    expect((await kiln.api('DELETE', `${links}/${added.body.id}`, { token: w.developer.token })).body.name).toBe('Manual');
    expect((await kiln.api('GET', `${links}/${added.body.id}`, { token: w.reporter.token })).status).toBe(404);
  });

  it('deletes a release, answering it, keeps the tag, and sends the delete hook', async () => {
    const deleted = await kiln.api('DELETE', `${base()}/v0.9`, { token: w.developer.token });
    expect([deleted.status, deleted.body.tag_name]).toEqual([200, 'v0.9']);
    expect((await kiln.api('GET', `${base()}/v0.9`, { token: w.developer.token })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${w.project.id}/repository/tags/v0.9`, { token: w.developer.token })).status).toBe(200);
    await kiln.worker.drain();
    expect(received.filter((r) => r.path === '/releases' && r.body.tag === 'v0.9').map((r) => r.body.action)).toEqual(['delete']);
  });
});
