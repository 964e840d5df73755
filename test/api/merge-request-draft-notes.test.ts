// Draft notes on merge requests (issue 34, review): a review written in private and submitted at
// once (GitLab's /draft_notes API), each published draft a note with its own Note Hook, on SQLite
// and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let receiver: HookReceiver;
const received: Received[] = [];
let mr: any;

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request));
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
  expect((await kiln.api('POST', `/projects/${w.project.id}/hooks`, { token: w.maintainer.token, body: { url: `${receiver.url}/notes`, push_events: false, note_events: true } })).status).toBe(201);
  await branchWith(kiln, w.developer, w.project.id, 'feature', [create('new.txt', 'alpha\nbeta\ngamma\n')]);
  mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'feature', title: 'Add new.txt', reviewer_ids: [w.reporter.id] });
});

afterAll(async () => {
  await kiln?.close();
  await receiver?.close();
});

const base = () => `/projects/${w.project.id}/merge_requests/${mr.iid}`;
const drafts = () => `${base()}/draft_notes`;
const position = (line: number) => ({ ...mr.diff_refs, position_type: 'text', old_path: 'new.txt', new_path: 'new.txt', new_line: line });

describe('draft notes', () => {
  it('are written, read, changed and deleted by their author only', async () => {
    const draft = await kiln.apiAs(w.reporter, 'POST', drafts(), { note: 'Why beta?', position: position(2) });
    expect(draft).toMatchObject({ author_id: w.reporter.id, merge_request_id: mr.id, resolve_discussion: false, discussion_id: null, note: 'Why beta?', commit_id: null, position: { new_path: 'new.txt', new_line: 2, head_sha: mr.diff_refs.head_sha }, line_code: expect.stringMatching(/^[0-9a-f]{40}_\d*_2$/) });
    expect(await kiln.apiAs(w.reporter, 'GET', `${drafts()}/${draft.id}`)).toEqual(draft);
    // Nobody else sees them, not even a Maintainer; the merge request has no note yet.
    expect(await kiln.apiAs(w.maintainer, 'GET', drafts())).toEqual([]);
    expect((await kiln.api('GET', `${drafts()}/${draft.id}`, { token: w.maintainer.token })).body).toEqual({ message: '404 Not found' });
    expect((await kiln.api('DELETE', `${drafts()}/${draft.id}`, { token: w.maintainer.token })).status).toBe(404);
    expect((await kiln.apiAs(w.reporter, 'GET', `${base()}/notes`)).filter((note: any) => !note.system)).toEqual([]);
    const changed = await kiln.apiAs(w.reporter, 'PUT', `${drafts()}/${draft.id}`, { note: 'Why beta here?' });
    expect(changed).toMatchObject({ note: 'Why beta here?', position: { new_line: 2 } });
    expect((await kiln.api('PUT', `${drafts()}/${draft.id}`, { token: w.reporter.token, body: { note: '' } })).body).toEqual({ message: '400 Bad request - Missing params to modify' });
    const other = await kiln.apiAs(w.reporter, 'POST', drafts(), { note: 'scrap this' });
    expect(other.position).toEqual({});
    expect((await kiln.api('DELETE', `${drafts()}/${other.id}`, { token: w.reporter.token })).status).toBe(204);
    expect((await kiln.apiAs(w.reporter, 'GET', drafts())).map((row: any) => row.id)).toEqual([draft.id]);
  });

  it('are refused with GitLab\'s answers', async () => {
    expect((await kiln.api('POST', drafts(), { token: w.reporter.token, body: {} })).body).toEqual({ error: 'note is missing' });
    expect((await kiln.api('POST', drafts(), { token: w.reporter.token, body: { note: 'x', in_reply_to_discussion_id: 'f'.repeat(40) } })).body).toEqual({ message: { base: ['Thread to reply to cannot be found'] } });
    expect((await kiln.api('POST', drafts(), { token: w.reporter.token, body: { note: 'x', resolve_discussion: true } })).body).toEqual({ message: { base: ['User is not allowed to resolve thread'] } });
    expect((await kiln.api('POST', drafts(), { token: w.reporter.token, body: { note: 'x', position: position(9) } })).status).toBe(400);
    expect((await kiln.api('POST', drafts(), { token: w.guest.token, body: { note: 'x' } })).status).toBe(404);
    expect((await kiln.api('GET', drafts(), {})).status).toBe(401);
  });

  it('are published one by one or all at once, each a note with its Note Hook, and the reviewer has reviewed', async () => {
    const thread = await kiln.apiAs(w.developer, 'POST', `${base()}/discussions`, { body: 'Open question' });
    const reply = await kiln.apiAs(w.developer, 'POST', drafts(), { note: 'Answered', in_reply_to_discussion_id: thread.id, resolve_discussion: true });
    expect(reply).toMatchObject({ discussion_id: thread.id, resolve_discussion: true, position: {} });
    expect((await kiln.api('PUT', `${drafts()}/${reply.id}/publish`, { token: w.developer.token })).status).toBe(204);
    const answered = await kiln.apiAs(w.developer, 'GET', `${base()}/discussions/${thread.id}`);
    expect(answered.notes.map((note: any) => [note.body, note.resolved])).toEqual([['Open question', true], ['Answered', true]]);
    expect(await kiln.apiAs(w.developer, 'GET', drafts())).toEqual([]);

    const [diffDraft] = await kiln.apiAs(w.reporter, 'GET', drafts());
    const general = await kiln.apiAs(w.reporter, 'POST', drafts(), { note: 'Overall fine' });
    await kiln.worker.drain();
    received.length = 0;
    // Two submissions racing publish each draft once.
    const answers = await Promise.all([1, 2].map(() => kiln.api('POST', `${drafts()}/bulk_publish`, { token: w.reporter.token })));
    expect(answers.map((answer) => answer.status)).toEqual([204, 204]);
    expect(await kiln.apiAs(w.reporter, 'GET', drafts())).toEqual([]);
    const notes = (await kiln.apiAs(w.reporter, 'GET', `${base()}/notes?sort=asc`)).filter((note: any) => !note.system && note.author.id === w.reporter.id);
    expect(notes.map((note: any) => [note.body, note.type])).toEqual([['Why beta here?', 'DiffNote'], ['Overall fine', 'DiscussionNote']]);
    expect(notes[0].position).toMatchObject({ new_path: 'new.txt', new_line: 2 });
    await kiln.worker.drain();
    const hooked = received.filter((r) => r.headers['x-gitlab-event'] === 'Note Hook').map((r) => r.body.object_attributes.id).sort((a, b) => a - b);
    expect(hooked).toEqual(notes.map((note: any) => note.id));
    expect(diffDraft.id).toBeLessThan(general.id);
    const detail = await kiln.apiAs(w.reporter, 'GET', `${base()}/reviewers`);
    expect(detail).toEqual([expect.objectContaining({ user: expect.objectContaining({ id: w.reporter.id }), state: 'reviewed' })]);
  });
});
