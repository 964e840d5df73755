// The Wiki Page Hook (issue 38): a page created, changed or deleted through the API or the pages is
// sent to the project's hooks with wiki_page_events, through the webhooks' durable delivery, with
// GitLab's payload (the page as the change left it; a deletion's content as it was); a hook's test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';

let kiln: TestKiln;
let alice: TestUser;
let project: any;
let receiver: HookReceiver;
let hookId: number;
const received: Received[] = [];

beforeAll(async () => {
  kiln = await testKiln();
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
