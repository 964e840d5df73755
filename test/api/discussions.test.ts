// Discussions of an issue (doc/api/discussions.md): threads, replies, an individual note turned into a
// thread by a reply, editing and deleting by the author (or a Maintainer), GitLab's errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let maintainer: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;
let thread: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maintainer');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'talk', { visibility: 'public' });
  await kiln.addMember(owner, 'projects', project.id, maintainer, ACCESS.maintainer);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Let us talk' } });
});
afterAll(() => kiln.close());

const discussions = () => `/projects/${project.id}/issues/1/discussions`;

describe('POST /api/v4/projects/:id/issues/:issue_iid/discussions', () => {
  it('starts a thread (201): a Discussion with one DiscussionNote, and a `commented` event', async () => {
    const { status, body } = await kiln.api('POST', discussions(), { token: guest.token, body: { body: 'Shall we?' } });
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      individual_note: false,
      notes: [expect.objectContaining({ type: 'DiscussionNote', body: 'Shall we?', author: expect.objectContaining({ username: 'guest' }), noteable_type: 'Issue', noteable_iid: 1, system: false })],
    });
    thread = body;
    // The event names the note's class, as GitLab's do (DiscussionNote for a note of a thread).
    const event = await kiln.deps.db.selectFrom('events').selectAll().where('target_type', '=', 'DiscussionNote').where('target_id', '=', body.notes[0].id).executeTakeFirstOrThrow();
    expect(event.action).toBe('commented');
  });

  it('answers 400 "body is missing" and the model error for a blank body', async () => {
    expect((await kiln.api('POST', discussions(), { token: guest.token, body: {} })).body).toEqual({ error: 'body is missing' });
    expect((await kiln.api('POST', discussions(), { token: guest.token, body: { body: ' ' } })).body).toEqual({ message: { note: ["can't be blank"] } });
  });

  it('answers 401 anonymously, and 404 on a private project to a non-member', async () => {
    expect((await kiln.api('GET', discussions())).status).toBe(401);
    const secret = await kiln.createProject(owner, 'secret-talk');
    await kiln.api('POST', `/projects/${secret.id}/issues`, { token: owner.token, body: { title: 'x' } });
    expect((await kiln.api('GET', `/projects/${secret.id}/issues/1/discussions`, { token: stranger.token })).body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('POST /api/v4/projects/:id/issues/:issue_iid/discussions/:discussion_id/notes', () => {
  it('replies in the thread (201) with a DiscussionNote', async () => {
    const { status, body } = await kiln.api('POST', `${discussions()}/${thread.id}/notes`, { token: owner.token, body: { body: 'Yes.' } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ type: 'DiscussionNote', body: 'Yes.' });
    const read = await kiln.api('GET', `${discussions()}/${thread.id}`, { token: guest.token });
    expect(read.body.notes.map((note: any) => note.body)).toEqual(['Shall we?', 'Yes.']);
  });

  it('turns an individual comment into a thread when someone replies to it', async () => {
    const comment = await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: guest.token, body: { body: 'Just a remark' } });
    expect(comment.body.type).toBeNull();
    const list = await kiln.api('GET', discussions(), { token: guest.token });
    const own = list.body.find((discussion: any) => discussion.notes[0].id === comment.body.id);
    expect(own.individual_note).toBe(true);
    await kiln.api('POST', `${discussions()}/${own.id}/notes`, { token: owner.token, body: { body: 'A reply' } });
    const after = await kiln.api('GET', `${discussions()}/${own.id}`, { token: guest.token });
    expect(after.body.individual_note).toBe(false);
    expect(after.body.notes.map((note: any) => [note.type, note.body])).toEqual([['DiscussionNote', 'Just a remark'], ['DiscussionNote', 'A reply']]);
  });

  it('answers 404 Discussion Not Found for an unknown discussion', async () => {
    const { status, body } = await kiln.api('POST', `${discussions()}/${'0'.repeat(40)}/notes`, { token: owner.token, body: { body: 'Lost' } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Discussion Not Found' });
  });
});

describe('GET /api/v4/projects/:id/issues/:issue_iid/discussions', () => {
  it('lists the discussions in the order they started, paginated by discussion', async () => {
    const { body, headers } = await kiln.api('GET', `${discussions()}?per_page=1`, { token: guest.token });
    expect(body).toHaveLength(1);
    expect(body[0].id).toBe(thread.id);
    expect(headers['x-total']).toBe('2');
    expect((await kiln.api('GET', `${discussions()}/${thread.id}/notes`, { token: guest.token })).body).toHaveLength(2);
  });
});

describe('PUT and DELETE /api/v4/projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id', () => {
  it('lets the author edit and read back their note', async () => {
    const note = thread.notes[0];
    const { status, body } = await kiln.api('PUT', `${discussions()}/${thread.id}/notes/${note.id}`, { token: guest.token, body: { body: 'Shall we, then?' } });
    expect(status).toBe(200);
    expect(body.body).toBe('Shall we, then?');
    expect((await kiln.api('GET', `${discussions()}/${thread.id}/notes/${note.id}`, { token: guest.token })).body.body).toBe('Shall we, then?');
  });

  it('refuses someone else\'s note to a guest (403), allows it to a maintainer (admin_note)', async () => {
    const reply = (await kiln.api('GET', `${discussions()}/${thread.id}`, { token: owner.token })).body.notes[1];
    expect((await kiln.api('PUT', `${discussions()}/${thread.id}/notes/${reply.id}`, { token: guest.token, body: { body: 'hijack' } })).status).toBe(403);
    expect((await kiln.api('PUT', `${discussions()}/${thread.id}/notes/${reply.id}`, { token: maintainer.token, body: { body: 'moderated' } })).body.body).toBe('moderated');
  });

  it('answers 400 for resolved (issue notes are not resolvable) and without body', async () => {
    const note = thread.notes[0];
    expect((await kiln.api('PUT', `${discussions()}/${thread.id}/notes/${note.id}`, { token: guest.token, body: { resolved: true } })).body).toEqual({ message: '400 Bad request - Note is not resolvable' });
    expect((await kiln.api('PUT', `${discussions()}/${thread.id}/notes/${note.id}`, { token: guest.token, body: {} })).body).toEqual({ error: 'body, resolved are missing, exactly one parameter must be provided' });
  });

  it('answers 404 for a note of another discussion', async () => {
    const list = (await kiln.api('GET', discussions(), { token: owner.token })).body;
    const other = list.find((discussion: any) => discussion.id !== thread.id);
    expect((await kiln.api('GET', `${discussions()}/${thread.id}/notes/${other.notes[0].id}`, { token: owner.token })).body).toEqual({ message: '404 Not found' });
  });

  it('deletes the author\'s note (204) and its `commented` event; the thread stays', async () => {
    const note = thread.notes[0];
    expect((await kiln.api('DELETE', `${discussions()}/${thread.id}/notes/${note.id}`, { token: guest.token })).status).toBe(204);
    const left = await kiln.api('GET', `${discussions()}/${thread.id}`, { token: guest.token });
    expect(left.body.notes).toHaveLength(1);
    expect(await kiln.deps.db.selectFrom('events').select('id').where('target_id', '=', note.id).where('action', '=', 'commented').execute()).toEqual([]);
  });
});

describe('POST /api/v4/projects/:id/issues/:issue_iid/discussions with created_at', () => {
  it('as the owner backdates the thread and a reply; a guest\'s created_at is ignored as GitLab ignores it', async () => {
    const started = await kiln.api('POST', discussions(), { token: owner.token, body: { body: 'Imported thread', created_at: '2021-03-04T05:06:07.000Z' } });
    expect(started.body.notes[0].created_at).toBe('2021-03-04T05:06:07.000Z');
    const reply = await kiln.api('POST', `${discussions()}/${started.body.id}/notes`, { token: owner.token, body: { body: 'Imported reply', created_at: '2021-03-05T00:00:00.000Z' } });
    expect(reply.body.created_at).toBe('2021-03-05T00:00:00.000Z');
    const guestReply = await kiln.api('POST', `${discussions()}/${started.body.id}/notes`, { token: guest.token, body: { body: 'Now', created_at: '2021-03-05T00:00:00.000Z' } });
    expect(guestReply.body.created_at).toBe('2026-11-22T08:00:00.000Z');
    expect((await kiln.api('POST', discussions(), { token: owner.token, body: { body: 'x', created_at: 'then' } })).body).toEqual({ error: 'created_at is invalid' });
  });
});
