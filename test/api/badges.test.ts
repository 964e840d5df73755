// Project and group badges (issue 38): CRUD by those who administer the project or group, reads by
// its readers, group badges listed in their projects with kind `group`, the URL placeholders
// rendered, `render` previews, GitLab's URL validation, and the badges on the project page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { commit, repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let sha: string;
const projectBase = () => `/projects/${w.project.id}/badges`;
const groupBase = () => `/groups/${w.group.id}/badges`;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  sha = (await commit(kiln, w.owner.token, w.project.id, { branch: 'main', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] })).id;
});
afterAll(() => kiln?.close());

describe('project badges', () => {
  let badgeId: number;

  it('a Maintainer adds one; its URLs are rendered with the project placeholders', async () => {
    const created = await kiln.api('POST', projectBase(), {
      token: w.maintainer.token,
      body: { name: 'Coverage', link_url: 'https://ci.example/%{project_path}/-/%{default_branch}?id=%{project_id}&t=%{project_title}&n=%{project_name}&other=%{nope}', image_url: 'https://img.example/%{commit_sha}.svg' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    badgeId = created.body.id;
    expect(created.body).toEqual({
      name: 'Coverage',
      link_url: 'https://ci.example/%{project_path}/-/%{default_branch}?id=%{project_id}&t=%{project_title}&n=%{project_name}&other=%{nope}',
      image_url: 'https://img.example/%{commit_sha}.svg',
      rendered_link_url: `https://ci.example/${w.project.path_with_namespace}/-/main?id=${w.project.id}&t=${w.project.name}&n=${w.project.path}&other=%{nope}`,
      rendered_image_url: `https://img.example/${sha}.svg`,
      id: badgeId, kind: 'project',
    });
  });

  it('is listed, filtered by name and read by any reader (a Guest); hidden from strangers of a private project', async () => {
    const list = await kiln.api('GET', projectBase(), { token: w.guest.token });
    expect([list.status, list.body.map((badge: any) => badge.id)]).toEqual([200, [badgeId]]);
    expect((await kiln.api('GET', `${projectBase()}?name=Other`, { token: w.guest.token })).body).toEqual([]);
    expect((await kiln.api('GET', `${projectBase()}?name=Coverage`, { token: w.guest.token })).body).toHaveLength(1);
    expect((await kiln.api('GET', `${projectBase()}/${badgeId}`, { token: w.guest.token })).body).toMatchObject({ id: badgeId, kind: 'project' });
    expect((await kiln.api('GET', projectBase(), { token: w.stranger.token })).status).toBe(404);
    expect((await kiln.api('GET', `${projectBase()}/999999`, { token: w.guest.token })).status).toBe(404);
  });

  it('only Maintainers add, change, preview and remove them (403 for a Developer)', async () => {
    const body = { link_url: 'https://a.example', image_url: 'https://b.example' };
    expect((await kiln.api('POST', projectBase(), { token: w.developer.token, body })).status).toBe(403);
    expect((await kiln.api('PUT', `${projectBase()}/${badgeId}`, { token: w.developer.token, body: { name: 'x' } })).status).toBe(403);
    expect((await kiln.api('DELETE', `${projectBase()}/${badgeId}`, { token: w.developer.token })).status).toBe(403);
    expect((await kiln.api('GET', `${projectBase()}/render?link_url=https://a.example&image_url=https://b.example`, { token: w.developer.token })).status).toBe(403);
    expect((await kiln.api('POST', projectBase(), { body })).status).toBe(401);
  });

  it('render previews without saving', async () => {
    const preview = await kiln.api('GET', `${projectBase()}/render?link_url=${encodeURIComponent('https://x.example/%{project_id}')}&image_url=${encodeURIComponent('http://y.example/%{default_branch}')}`, { token: w.maintainer.token });
    expect(preview).toMatchObject({ status: 200, body: { name: null, link_url: 'https://x.example/%{project_id}', image_url: 'http://y.example/%{default_branch}', rendered_link_url: `https://x.example/${w.project.id}`, rendered_image_url: 'http://y.example/main' } });
    expect(preview.body.id).toBeUndefined();
    expect((await kiln.api('GET', projectBase(), { token: w.maintainer.token })).body).toHaveLength(1);
  });

  it('refuses URLs that are not http or https, and missing ones, naming them', async () => {
    const bad = await kiln.api('POST', projectBase(), { token: w.maintainer.token, body: { link_url: 'javascript:alert(1)', image_url: 'ftp://x.example/a.svg' } });
    expect(bad).toMatchObject({ status: 400, body: { message: { link_url: ['is blocked: Only allowed schemes are http, https'], image_url: ['is blocked: Only allowed schemes are http, https'] } } });
    const missing = await kiln.api('POST', projectBase(), { token: w.maintainer.token, body: { link_url: 'https://x.example' } });
    expect(missing).toMatchObject({ status: 400, body: { error: 'image_url is missing' } });
    expect((await kiln.api('PUT', `${projectBase()}/${badgeId}`, { token: w.maintainer.token, body: { link_url: 'not a url' } })).status).toBe(400);
    expect((await kiln.api('GET', `${projectBase()}/render?link_url=data:x&image_url=https://y.example`, { token: w.maintainer.token })).body).toEqual({ message: { link_url: ['is blocked: Only allowed schemes are http, https'] } });
    expect((await kiln.api('GET', `${projectBase()}/abc`, { token: w.maintainer.token })).status).toBe(400);
  });

  it('a Maintainer changes what is sent and keeps the rest', async () => {
    const updated = await kiln.api('PUT', `${projectBase()}/${badgeId}`, { token: w.maintainer.token, body: { name: 'Cov' } });
    expect(updated).toMatchObject({ status: 200, body: { id: badgeId, name: 'Cov', image_url: 'https://img.example/%{commit_sha}.svg' } });
  });
});

describe('group badges', () => {
  let groupBadge: number;

  it('an Owner adds one; it is rendered with the group\'s first project and listed in the project with kind group', async () => {
    const created = await kiln.api('POST', groupBase(), { token: w.owner.token, body: { name: 'Group', link_url: 'https://g.example/%{project_path}', image_url: 'https://g.example/b.svg' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    groupBadge = created.body.id;
    expect(created.body).toMatchObject({ kind: 'group', rendered_link_url: `https://g.example/${w.project.path_with_namespace}` });
    const inProject = await kiln.api('GET', projectBase(), { token: w.guest.token });
    expect(inProject.body.map((badge: any) => [badge.name, badge.kind])).toEqual([['Cov', 'project'], ['Group', 'group']]);
    expect((await kiln.api('GET', `${projectBase()}/${groupBadge}`, { token: w.guest.token })).body).toMatchObject({ kind: 'group', rendered_link_url: `https://g.example/${w.project.path_with_namespace}` });
    const own = await kiln.api('GET', groupBase(), { token: w.owner.token });
    expect(own.body.map((badge: any) => badge.id)).toEqual([groupBadge]);
  });

  it('a project cannot change its group\'s badge; a project Maintainer cannot add group badges', async () => {
    expect((await kiln.api('PUT', `${projectBase()}/${groupBadge}`, { token: w.maintainer.token, body: { name: 'mine' } })).status).toBe(404);
    expect((await kiln.api('DELETE', `${projectBase()}/${groupBadge}`, { token: w.maintainer.token })).status).toBe(404);
    // The project's Maintainer is no member of the group: they read it through its project (GitLab's
    // has_projects), but do not administer it.
    expect((await kiln.api('POST', groupBase(), { token: w.maintainer.token, body: { link_url: 'https://a.example', image_url: 'https://b.example' } })).status).toBe(403);
  });

  it('a subgroup\'s project inherits the badges of every ancestor', async () => {
    const sub = await kiln.createGroup(w.owner, 'sub', { visibility: 'private', parent_id: w.group.id });
    const project = await kiln.createProject(w.owner, 'deep', { namespace_id: sub.id, visibility: 'private' });
    const list = await kiln.api('GET', `/projects/${project.id}/badges`, { token: w.owner.token });
    expect(list.body).toEqual([expect.objectContaining({ id: groupBadge, kind: 'group', rendered_link_url: `https://g.example/${project.path_with_namespace}` })]);
  });

  it('an Owner removes it (204)', async () => {
    expect((await kiln.api('DELETE', `${groupBase()}/${groupBadge}`, { token: w.owner.token })).status).toBe(204);
    expect((await kiln.api('GET', `${groupBase()}/${groupBadge}`, { token: w.owner.token })).status).toBe(404);
  });
});

describe('the project page', () => {
  it('shows the badges, rendered, each an image in a link named by the badge', async () => {
    const owner = await kiln.createUser('pageowner');
    const project = await kiln.createProject(owner, 'shown', { visibility: 'public' });
    expect((await kiln.api('POST', `/projects/${project.id}/badges`, { token: owner.token, body: { name: 'Pipeline <b>', link_url: 'https://ci.example/%{project_path}', image_url: `${kiln.deps.config.baseUrl}/%{project_path}/badges/%{default_branch}/pipeline.svg` } })).status).toBe(201);
    const page = await kiln.request('GET', `/${project.path_with_namespace}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<a href="https://ci.example/${project.path_with_namespace}" rel="noopener noreferrer nofollow"><img src="${kiln.deps.config.baseUrl}/${project.path_with_namespace}/badges/main/pipeline.svg" alt="Pipeline &lt;b&gt;" height="20"></a>`);
  });
});
