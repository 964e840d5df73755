// The Wiki Page Hook of a group's wiki (issue 38): a page created, changed or deleted through
// /groups/:id/wikis, or pushed with git to the group's wiki repository, goes to the group hooks of the
// group and its ancestors that want wiki page events, with `group` where a project wiki's has `project`
// (docs/wikis.md), and to no project hook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';

let kiln: TestKiln;
let owner: TestUser;
let parent: any;
let group: any;
let receiver: HookReceiver;
const received: Received[] = [];
let work: string;
const { ok } = gitCommands(() => work);
const at = (path: string) => received.filter((request) => request.path === path);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-group-wiki-hooks-'));
  kiln = await testKiln({ storages: [{ name: 'default', path: join(work, 'shards', 'default'), weight: 100 }] });
  receiver = await startHookReceiver((request) => received.push(request));
  owner = await kiln.createUser('owner');
  parent = await kiln.createGroup(owner, 'company');
  group = await kiln.createGroup(owner, 'docs', { parent_id: parent.id });
  expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
  const hook = await kiln.api('POST', `/groups/${group.id}/hooks`, { token: owner.token, body: { url: `${receiver.url}/group`, push_events: false, wiki_page_events: true } });
  expect([hook.status, hook.body.wiki_page_events]).toEqual([201, true]);
  const read = await kiln.api('GET', `/groups/${group.id}/hooks/${hook.body.id}`, { token: owner.token });
  expect(read.body.wiki_page_events).toBe(true);
  expect((await kiln.api('POST', `/groups/${parent.id}/hooks`, { token: owner.token, body: { url: `${receiver.url}/parent`, push_events: false, wiki_page_events: true } })).status).toBe(201);
  // Hooks that did not ask for wiki page events, and a project's hook below the group, hear nothing.
  expect((await kiln.api('POST', `/groups/${group.id}/hooks`, { token: owner.token, body: { url: `${receiver.url}/others`, issues_events: true } })).status).toBe(201);
  const project = await kiln.createProject(owner, 'inside', { namespace_id: group.id });
  expect((await kiln.api('POST', `/projects/${project.id}/hooks`, { token: owner.token, body: { url: `${receiver.url}/project`, wiki_page_events: true } })).status).toBe(201);
});

afterAll(async () => {
  await receiver?.close();
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('Wiki Page Hook of a group wiki', () => {
  it('is sent to the group hooks of the group and its ancestors for a page created, updated and deleted', async () => {
    await kiln.api('POST', `/groups/${group.id}/wikis`, { token: owner.token, body: { title: 'Style Guide', content: 'First' } });
    await kiln.api('PUT', `/groups/${group.id}/wikis/Style-Guide`, { token: owner.token, body: { content: 'Second' } });
    await kiln.api('DELETE', `/groups/${group.id}/wikis/Style-Guide`, { token: owner.token });
    await kiln.worker.drain();
    const order = ['create', 'update', 'delete'];
    const hooks = at('/group').sort((a, b) => order.indexOf(a.body.object_attributes.action) - order.indexOf(b.body.object_attributes.action));
    expect(hooks.map((hook) => [hook.headers['x-gitlab-event'], hook.body.object_attributes.action, hook.body.object_attributes.content])).toEqual([
      ['Wiki Page Hook', 'create', 'First'],
      ['Wiki Page Hook', 'update', 'Second'],
      ['Wiki Page Hook', 'delete', 'Second'],
    ]);
    const base = kiln.deps.config.baseUrl;
    expect(hooks[0].body).toEqual({
      object_kind: 'wiki_page',
      user: expect.objectContaining({ username: 'owner' }),
      group: { group_id: group.id, group_name: 'docs', group_path: 'docs', full_path: 'company/docs' },
      wiki: {
        web_url: `${base}/groups/company/docs/-/wikis/home`,
        git_ssh_url: `${kiln.deps.config.sshUrlPrefix}company/docs.wiki.git`,
        git_http_url: `${base}/company/docs.wiki.git`,
        path_with_namespace: 'company/docs.wiki',
        default_branch: 'main',
      },
      object_attributes: {
        slug: 'Style-Guide', title: 'Style Guide', format: 'markdown', content: 'First', message: 'owner created page: Style-Guide',
        version_id: expect.stringMatching(/^[0-9a-f]{40}$/), url: `${base}/groups/company/docs/-/wikis/Style-Guide`, action: 'create',
        diff_url: `${base}/groups/company/docs/-/wikis/Style-Guide/diff?version_id=${hooks[0].body.object_attributes.version_id}`,
      },
    });
    expect(at('/parent').map((hook) => hook.body.object_attributes.action).sort()).toEqual(['create', 'delete', 'update']);
    expect([at('/others'), at('/project')]).toEqual([[], []]);
  });

  it('is sent for each page a git push to the group wiki changed', async () => {
    received.length = 0;
    const base = await listenOnLoopback(kiln.app);
    const dir = join(work, 'pushed');
    await ok(['clone', '-q', `${base.replace('http://', `http://owner:${owner.token}@`)}/company/docs.wiki.git`, dir]);
    await ok(['config', 'user.name', 'Owner'], dir);
    await ok(['config', 'user.email', 'owner@example.com'], dir);
    writeFileSync(join(dir, 'Pushed.md'), '# Pushed');
    await ok(['add', '-A'], dir);
    await ok(['commit', '-q', '-m', 'A page from git'], dir);
    await ok(['push', '-q', 'origin', 'HEAD'], dir);
    await kiln.worker.drain();
    expect(at('/group').map((hook) => [hook.body.object_attributes.slug, hook.body.object_attributes.action, hook.body.object_attributes.message, hook.body.group.group_id])).toEqual([
      ['Pushed', 'create', 'A page from git', group.id],
    ]);
    expect(at('/parent')).toHaveLength(1);
    expect(at('/project')).toEqual([]);
  });
});
