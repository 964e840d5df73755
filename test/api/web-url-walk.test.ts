// Every web_url and details_url the API hands out for a project's world (project, group, namespace,
// users, issues and incidents, alerts, members, events' authors, commits, branches, comparisons,
// project and group milestones) answers a page: 200 HTML for a member, 404 for a signed-in outsider
// (users' profiles are public, as GitLab's are).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let outsider: TestUser;
const urls = new Set<string>();

function collect(value: unknown): void {
  if (Array.isArray(value)) value.forEach(collect);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if ((key === 'web_url' || key === 'details_url') && typeof inner === 'string') urls.add(inner);
      else collect(inner);
    }
  }
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  outsider = await kiln.createUser('outsider');
  const group = await kiln.createGroup(owner, 'ops');
  const sub = await kiln.createGroup(owner, 'web', { parent_id: group.id });
  const project = await kiln.createProject(owner, 'shop', { namespace_id: sub.id });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await kiln.api(method, path, { token: owner.token, body });
    collect(response.body);
    return response.body;
  };
  await api('POST', `/projects/${project.id}/issues`, { title: 'A bug' });
  await api('POST', `/projects/${project.id}/issues`, { title: 'An outage', issue_type: 'incident' });
  const integration = await api('POST', `/projects/${project.id}/alert_management/integrations`, { name: 'Main' });
  await kiln.app.inject({ method: 'POST', url: new URL(integration.url).pathname, headers: { 'content-type': 'application/json', authorization: `Bearer ${integration.token}` }, payload: JSON.stringify({ title: 'Disk full' }) });
  await api('POST', `/projects/${project.id}/environments`, { name: 'production' });
  const root = await api('POST', `/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: 'Add a README', actions: [{ action: 'create', file_path: 'README.md', content: '# Shop' }] });
  await api('POST', `/projects/${project.id}/repository/commits`, { branch: 'feature/x', start_branch: 'main', commit_message: 'Change it', actions: [{ action: 'update', file_path: 'README.md', content: '# Shop!' }] });
  await api('GET', `/projects/${project.id}/repository/compare?from=${root.id}&to=feature/x`);
  const milestone = await api('POST', `/projects/${project.id}/milestones`, { title: 'v1' });
  await api('POST', `/groups/${group.id}/milestones`, { title: 'Q1' });
  for (const path of [
    `/projects/${project.id}`, `/groups/${group.id}`, `/groups/${sub.id}`, `/groups/${group.id}/subgroups`, `/groups/${sub.id}/projects`, '/namespaces', '/projects',
    `/projects/${project.id}/issues`, `/projects/${project.id}/alert_management_alerts`, `/projects/${project.id}/members/all`, `/users/${owner.id}`,
    `/projects/${project.id}/events`, `/projects/${project.id}/issues/1/notes`, '/user',
    `/projects/${project.id}/repository/commits?all=true`, `/projects/${project.id}/repository/branches`, `/projects/${project.id}/milestones/${milestone.id}`, `/groups/${group.id}/milestones`,
  ]) await api('GET', path);
});
afterAll(() => kiln.close());

describe('every web_url and details_url of the API', () => {
  it('were collected, issues, alerts, groups, users and the project among them', () => {
    const paths = [...urls].map((url) => url.slice(BASE_URL.length));
    expect(paths).toEqual(expect.arrayContaining(['/ops/web/shop', '/groups/ops', '/groups/ops/web', '/owner', '/ops/web/shop/-/issues/1', '/ops/web/shop/-/issues/2', '/ops/web/shop/-/alert_management/1/details',
      '/ops/web/shop/-/tree/main', '/ops/web/shop/-/tree/feature/x', '/ops/web/shop/-/milestones/1', '/groups/ops/-/milestones/1']));
    expect(paths.some((path) => /\/-\/commit\/[0-9a-f]{40}$/.test(path))).toBe(true);
    expect(paths.some((path) => /\/-\/compare\/[0-9a-f]{40}\.\.\.[0-9a-f]{40}$/.test(path))).toBe(true);
  });

  it('as a member answer 200 HTML; as an outsider 404 (user profiles excepted)', async () => {
    const member = new WebSession(kiln);
    await member.signIn(owner.username, owner.password);
    const stranger = new WebSession(kiln);
    await stranger.signIn(outsider.username, outsider.password);
    const checked: string[] = [];
    for (const url of urls) {
      expect(url.startsWith(BASE_URL)).toBe(true);
      const path = url.slice(BASE_URL.length);
      const mine = await member.get(path);
      expect([path, mine.statusCode, mine.headers['content-type']]).toEqual([path, 200, 'text/html; charset=utf-8']);
      const profile = /^\/[^/]+$/.test(path) && !path.startsWith('/groups');
      const theirs = await stranger.get(path);
      // A group's bare path redirects to /groups/<path>, which then answers 404 to outsiders.
      const status = theirs.statusCode === 302 ? (await stranger.get(String(theirs.headers.location))).statusCode : theirs.statusCode;
      expect([path, status]).toEqual([path, profile ? 200 : 404]);
      checked.push(path);
    }
    expect(checked.length).toBeGreaterThanOrEqual(7);
  });
});
