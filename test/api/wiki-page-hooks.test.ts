// The Wiki Page Hook (issue 38): a page created, changed or deleted through the API or the pages is
// sent to the project's hooks with wiki_page_events, through the webhooks' durable delivery, with
// GitLab's payload (the page as the change left it; a deletion's content as it was); a hook's test;
// a git push to the wiki sends one for each page it changed on the HEAD branch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';

let kiln: TestKiln;
let alice: TestUser;
let project: any;
let receiver: HookReceiver;
let hookId: number;
const received: Received[] = [];
let work: string;
const { ok } = gitCommands(() => work);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-wiki-hooks-'));
  kiln = await testKiln({ storages: [{ name: 'default', path: join(work, 'shards', 'default'), weight: 100 }] });
  receiver = await startHookReceiver((request) => received.push(request));
  alice = await kiln.createUser('alice');
  project = await kiln.createProject(alice, 'handbook');
  expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
  const hook = await kiln.api('POST', `/projects/${project.id}/hooks`, { token: alice.token, body: { url: `${receiver.url}/wiki`, push_events: false, wiki_page_events: true } });
  expect([hook.status, hook.body.wiki_page_events]).toEqual([201, true]);
  hookId = hook.body.id;
  expect((await kiln.api('POST', `/projects/${project.id}/hooks`, { token: alice.token, body: { url: `${receiver.url}/pushes` } })).status).toBe(201);
});

afterAll(async () => {
  await receiver?.close();
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('Wiki Page Hook', () => {
  it('is sent for a page created, updated and deleted, with the page as each change left it', async () => {
    await kiln.api('POST', `/projects/${project.id}/wikis`, { token: alice.token, body: { title: 'Deploy Guide', content: 'First' } });
    await kiln.api('PUT', `/projects/${project.id}/wikis/Deploy-Guide`, { token: alice.token, body: { content: 'Second' } });
    await kiln.api('DELETE', `/projects/${project.id}/wikis/Deploy-Guide`, { token: alice.token });
    await kiln.worker.drain();
    // Deliveries are jobs of their own: in no set order.
    const order = ['create', 'update', 'delete'];
    const hooks = received.filter((request) => request.path === '/wiki').sort((a, b) => order.indexOf(a.body.object_attributes.action) - order.indexOf(b.body.object_attributes.action));
    expect(hooks.map((hook) => [hook.headers['x-gitlab-event'], hook.body.object_attributes.action, hook.body.object_attributes.content])).toEqual([
      ['Wiki Page Hook', 'create', 'First'],
      ['Wiki Page Hook', 'update', 'Second'],
      ['Wiki Page Hook', 'delete', 'Second'],
    ]);
    const web = `${kiln.deps.config.baseUrl}/alice/handbook`;
    expect(hooks[0].body).toMatchObject({
      object_kind: 'wiki_page',
      user: { username: 'alice' },
      project: { id: project.id, path_with_namespace: 'alice/handbook' },
      wiki: { web_url: `${web}/-/wikis/home`, git_http_url: `${web}.wiki.git`, path_with_namespace: 'alice/handbook.wiki', default_branch: 'main' },
      object_attributes: { slug: 'Deploy-Guide', title: 'Deploy Guide', format: 'markdown', message: 'alice created page: Deploy-Guide', url: `${web}/-/wikis/Deploy-Guide`, version_id: expect.stringMatching(/^[0-9a-f]{40}$/) },
    });
    expect(received.filter((request) => request.path === '/pushes')).toEqual([]);
  });

  it('is what a hook test of wiki page events sends', async () => {
    await kiln.api('POST', `/projects/${project.id}/wikis`, { token: alice.token, body: { title: 'home', content: 'Hello' } });
    await kiln.worker.drain();
    received.length = 0;
    const tested = await kiln.api('POST', `/projects/${project.id}/hooks/${hookId}/test/wiki_page_events`, { token: alice.token });
    expect(tested.status).toBe(201);
    expect(received.map((request) => [request.headers['x-gitlab-event'], request.body.object_attributes.slug])).toEqual([['Wiki Page Hook', 'home']]);
  });
});

describe('a git push to the wiki', () => {
  it('sends a Wiki Page Hook for each page it added, changed or removed on the HEAD branch, none for other files or branches', async () => {
    const base = await listenOnLoopback(kiln.app);
    await kiln.api('POST', `/projects/${project.id}/wikis`, { token: alice.token, body: { title: 'Old Page', content: 'old' } });
    await kiln.worker.drain();
    received.length = 0;
    const dir = join(work, 'pushed');
    await ok(['clone', '-q', `${base.replace('http://', `http://alice:${alice.token}@`)}/alice/handbook.wiki.git`, dir]);
    await ok(['config', 'user.name', 'Alice Pusher'], dir);
    await ok(['config', 'user.email', 'alice@example.com'], dir);
    writeFileSync(join(dir, 'Pushed.md'), '# Pushed');
    writeFileSync(join(dir, 'home.md'), 'Hello again');
    writeFileSync(join(dir, 'notes.txt'), 'not a page');
    unlinkSync(join(dir, 'Old-Page.md'));
    await ok(['add', '-A'], dir);
    await ok(['commit', '-q', '-m', 'Pages from git'], dir);
    await ok(['push', '-q', 'origin', 'HEAD'], dir);
    await ok(['push', '-q', 'origin', 'HEAD:refs/heads/side'], dir);
    await kiln.worker.drain();
    const hooks = received.filter((request) => request.path === '/wiki').map((request) => request.body.object_attributes);
    expect(hooks.map((hook) => [hook.slug, hook.action, hook.content, hook.message]).sort()).toEqual([
      ['Old-Page', 'delete', 'old', 'Pages from git'],
      ['Pushed', 'create', '# Pushed', 'Pages from git'],
      ['home', 'update', 'Hello again', 'Pages from git'],
    ]);
    expect(received.filter((request) => request.path === '/wiki').every((request) => request.body.user.username === 'alice')).toBe(true);
  });
});
