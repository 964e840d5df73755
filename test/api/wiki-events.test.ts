// Activity events of project wiki pages (issue 38; GitLab's WikiPages::EventCreateService): `created`,
// `updated` and `destroyed` with target_type WikiPage::Meta for pages changed through the API and git
// pushes, one target id per page kept across a rename, the page as `wiki_page`, the `wiki` filter on
// /projects/:id/events, /users/:id/events and /events, and only for those who read the wiki.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let project: any;
let work: string;
const { ok } = gitCommands(() => work);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-wiki-events-'));
  kiln = await testKiln({ storages: [{ name: 'default', path: join(work, 'shards', 'default'), weight: 100 }] });
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  project = await kiln.createProject(alice, 'handbook', { visibility: 'public' });
});

afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

const wikiEvents = async (path: string, token?: string) => {
  const listed = await kiln.api('GET', `${path}${path.includes('?') ? '&' : '?'}target_type=wiki`, token ? { token } : {});
  expect(listed.status).toBe(200);
  return listed.body as any[];
};

describe('wiki page events', () => {
  it('records created, updated and destroyed on one meta record per page, kept across a rename', async () => {
    await kiln.api('POST', `/projects/${project.id}/wikis`, { token: alice.token, body: { title: 'Deploy Guide', content: 'First' } });
    await kiln.api('PUT', `/projects/${project.id}/wikis/Deploy-Guide`, { token: alice.token, body: { content: 'Second' } });
    expect((await kiln.api('PUT', `/projects/${project.id}/wikis/Deploy-Guide`, { token: alice.token, body: { title: 'Release Guide' } })).status).toBe(200);
    // An issue's event is not a wiki event.
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: alice.token, body: { title: 'Unrelated' } });
    const events = await wikiEvents(`/projects/${project.id}/events`);
    expect(events.map((event) => [event.action_name, event.target_type, event.target_title])).toEqual([
      ['updated', 'WikiPage::Meta', 'Release Guide'],
      ['updated', 'WikiPage::Meta', 'Deploy Guide'],
      ['created', 'WikiPage::Meta', 'Deploy Guide'],
    ]);
    expect(new Set(events.map((event) => event.target_id)).size).toBe(1);
    expect(events[0]).toMatchObject({ project_id: project.id, author_id: alice.id, author_username: 'alice', wiki_page: { format: 'markdown', slug: 'Release-Guide', title: 'Release Guide' } });
    expect(events[0].target_iid).toBe(events[0].target_id);

    expect((await kiln.api('DELETE', `/projects/${project.id}/wikis/Release-Guide`, { token: alice.token })).status).toBe(204);
    const [destroyed] = await wikiEvents(`/projects/${project.id}/events`);
    expect([destroyed.action_name, destroyed.target_id, destroyed.target_title, destroyed.wiki_page]).toEqual(['destroyed', events[0].target_id, 'Release Guide', null]);
    const all = (await kiln.api('GET', `/projects/${project.id}/events?action=destroyed`)).body;
    expect(all.map((event: any) => event.target_type)).toEqual(['WikiPage::Meta']);
  });

  it('records a created event for a page pushed with git, and a page made again gets its record back', async () => {
    const base = await listenOnLoopback(kiln.app);
    const dir = join(work, 'pushed');
    await ok(['clone', '-q', `${base.replace('http://', `http://alice:${alice.token}@`)}/alice/handbook.wiki.git`, dir]);
    await ok(['config', 'user.name', 'Alice'], dir);
    await ok(['config', 'user.email', 'alice@example.com'], dir);
    writeFileSync(join(dir, 'Release-Guide.md'), '---\ntitle: The Release Guide\n---\nBack');
    await ok(['add', '-A'], dir);
    await ok(['commit', '-q', '-m', 'Pushed'], dir);
    await ok(['push', '-q', 'origin', 'HEAD'], dir);
    const [pushed, destroyed] = await wikiEvents(`/projects/${project.id}/events`);
    expect([pushed.action_name, pushed.target_title, pushed.wiki_page]).toEqual(['created', 'The Release Guide', { format: 'markdown', slug: 'Release-Guide', title: 'The Release Guide' }]);
    expect(pushed.target_id).toBe(destroyed.target_id);
  });

  it('are listed by the wiki filter of /users/:id/events and /events', async () => {
    const byUser = await wikiEvents(`/users/${alice.id}/events`, bob.token);
    expect(byUser.map((event) => event.action_name)).toEqual(['created', 'destroyed', 'updated', 'updated', 'created']);
    const own = await wikiEvents('/events', alice.token);
    expect(own.map((event) => event.target_type)).toEqual(Array(5).fill('WikiPage::Meta'));
    expect(await wikiEvents('/events', bob.token)).toEqual([]);
    expect((await kiln.api('GET', '/events?target_type=wikis', { token: alice.token })).status).toBe(400);
  });

  it('are shown only to who reads the wiki: a private wiki of a public project hides them from non-members', async () => {
    const quiet = await kiln.createProject(alice, 'quiet', { visibility: 'public' });
    expect((await kiln.api('PUT', `/projects/${quiet.id}`, { token: alice.token, body: { wiki_access_level: 'private' } })).status).toBe(200);
    await kiln.api('POST', `/projects/${quiet.id}/wikis`, { token: alice.token, body: { title: 'Secret Plans', content: 'x' } });
    await kiln.api('POST', `/projects/${quiet.id}/issues`, { token: alice.token, body: { title: 'Open issue' } });
    const titles = (events: any[]) => events.map((event) => event.target_title);
    expect(titles((await kiln.api('GET', `/projects/${quiet.id}/events`, { token: bob.token })).body)).toEqual(['Open issue', null]);
    expect(titles((await kiln.api('GET', `/projects/${quiet.id}/events`)).body)).not.toContain('Secret Plans');
    expect(titles(await wikiEvents(`/users/${alice.id}/events`, bob.token))).not.toContain('Secret Plans');
    expect(titles(await wikiEvents(`/projects/${quiet.id}/events`, alice.token))).toEqual(['Secret Plans']);
    expect(titles(await wikiEvents(`/users/${alice.id}/events`, alice.token))).toContain('Secret Plans');
    await kiln.addMember(alice, 'projects', quiet.id, bob, 10);
    expect(titles(await wikiEvents(`/projects/${quiet.id}/events`, bob.token))).toEqual(['Secret Plans']);
    expect(titles(await wikiEvents(`/users/${alice.id}/events`, bob.token))).toContain('Secret Plans');
  });

  it('names an API change by the page its commit left, front matter title first', async () => {
    const runbooks = await kiln.createProject(alice, 'runbooks', { visibility: 'public' });
    const runbook = `/projects/${runbooks.id}/wikis`;
    await kiln.api('POST', runbook, { token: alice.token, body: { title: 'Runbook', content: '---\ntitle: On-call Runbook\n---\nSteps', format: 'asciidoc' } });
    expect((await kiln.api('PUT', `${runbook}/Runbook`, { token: alice.token, body: { content: '---\ntitle: Incident Runbook\n---\nSteps' } })).status).toBe(200);
    expect((await kiln.api('DELETE', `${runbook}/Runbook`, { token: alice.token })).status).toBe(204);
    const events = await wikiEvents(`/projects/${runbooks.id}/events`);
    expect(events.map((event) => [event.action_name, event.target_title])).toEqual([
      ['destroyed', 'Incident Runbook'],
      ['updated', 'Incident Runbook'],
      ['created', 'On-call Runbook'],
    ]);
    expect(new Set(events.map((event) => event.target_id)).size).toBe(1);
  });
});
