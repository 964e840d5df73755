// The Note Hook of a comment on a project snippet (issue 38): sent to the project's hooks with
// note_events through the durable delivery, with GitLab's payload (the note, the project and `snippet`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let alice: TestUser;
let guest: TestUser;
let project: any;
let receiver: HookReceiver;
const received: Received[] = [];

beforeAll(async () => {
  kiln = await testKiln();
  receiver = await startHookReceiver((request) => received.push(request));
  alice = await kiln.createUser('alice');
  guest = await kiln.createUser('guest');
  project = await kiln.createProject(alice, 'tools', { visibility: 'private' });
  await kiln.addMember(alice, 'projects', project.id, guest, ACCESS.guest);
  expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
  expect((await kiln.api('POST', `/projects/${project.id}/hooks`, { token: alice.token, body: { url: `${receiver.url}/notes`, push_events: false, note_events: true } })).status).toBe(201);
  expect((await kiln.api('POST', `/projects/${project.id}/hooks`, { token: alice.token, body: { url: `${receiver.url}/pushes`, push_events: true } })).status).toBe(201);
});

afterAll(async () => {
  await receiver?.close();
  await kiln?.close();
});

describe('Note Hook of a snippet comment', () => {
  it('carries the note and the snippet, to the hooks with note_events only', async () => {
    const files = [{ file_path: 'run.sh', content: 'echo hi\n' }, { file_path: 'b.txt', content: 'b' }];
    const snippet = (await kiln.api('POST', `/projects/${project.id}/snippets`, { token: alice.token, body: { title: 'Runner', description: 'How', visibility: 'private', files } })).body;
    const note = await kiln.api('POST', `/projects/${project.id}/snippets/${snippet.id}/notes`, { token: guest.token, body: { body: 'Nice **one**' } });
    expect(note.status).toBe(201);
    await kiln.worker.drain();
    expect(received.filter((request) => request.path === '/pushes')).toEqual([]);
    const hooks = received.filter((request) => request.path === '/notes');
    expect(hooks.map((request) => request.headers['x-gitlab-event'])).toEqual(['Note Hook']);
    const url = `${kiln.deps.config.baseUrl}/alice/tools/-/snippets/${snippet.id}`;
    expect(hooks[0].body).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      user: { username: 'guest' },
      project_id: project.id,
      project: { path_with_namespace: 'alice/tools' },
      object_attributes: { id: note.body.id, note: 'Nice **one**', noteable_type: 'Snippet', noteable_id: snippet.id, project_id: project.id, url: `${url}#note_${note.body.id}`, action: 'create', system: false },
      snippet: { id: snippet.id, title: 'Runner', description: 'How', content: 'echo hi\n', file_name: 'run.sh', author_id: alice.id, project_id: project.id, type: 'ProjectSnippet', visibility_level: 0, url },
    });
    expect(hooks[0].body.snippet.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  });
});
