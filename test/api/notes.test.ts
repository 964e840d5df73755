import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let owner: TestUser;
let stranger: TestUser;
let project: { id: number };

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'noted');
  await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Talk about it' } });
});
afterAll(() => kiln.close());

describe('POST /api/v4/projects/:id/issues/:issue_iid/notes', () => {
  it('comments (201) with GitLab\'s note entity and records a `commented` event', async () => {
    const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: { body: 'First comment' } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ body: 'First comment', system: false, noteable_type: 'Issue', noteable_iid: 1, author: { username: 'owner' }, created_at: '2026-11-22T08:00:00.000Z' });
    const event = await kiln.deps.db.selectFrom('events').selectAll().where('target_type', '=', 'Note').where('target_id', '=', body.id).executeTakeFirstOrThrow();
    expect(event.action).toBe('commented');
  });

  it('counts user notes on the issue', async () => {
    await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: { body: 'Second' } });
    expect((await kiln.api('GET', `/projects/${project.id}/issues/1`, { token: owner.token })).body.user_notes_count).toBe(2);
  });

  it('answers 400 "body is missing" without a body', async () => {
    expect((await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: {} })).body).toEqual({ error: 'body is missing' });
  });

  it('answers 400 with the model error for a blank body', async () => {
    const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: { body: ' ' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { note: ["can't be blank"] } });
  });

  it('answers 404 Not found on a missing issue', async () => {
    expect((await kiln.api('POST', `/projects/${project.id}/issues/77/notes`, { token: owner.token, body: { body: 'x' } })).body).toEqual({ message: '404 Not found' });
  });

  it('as a non-member of a private project answers 404 Project Not Found', async () => {
    expect((await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: stranger.token, body: { body: 'x' } })).body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('GET /api/v4/projects/:id/issues/:issue_iid/notes', () => {
  it('lists notes newest first, or oldest first with sort=asc', async () => {
    const desc = await kiln.api('GET', `/projects/${project.id}/issues/1/notes`, { token: owner.token });
    expect(desc.status).toBe(200);
    expect(desc.body.map((note: { body: string }) => note.body)).toEqual(['Second', 'First comment']);
    expect(desc.headers['x-total']).toBe('2');
    const asc = await kiln.api('GET', `/projects/${project.id}/issues/1/notes?sort=asc`, { token: owner.token });
    expect(asc.body.map((note: { body: string }) => note.body)).toEqual(['First comment', 'Second']);
  });
});

describe('GET /api/v4/projects/:id/issues/:issue_iid/notes/:note_id', () => {
  it('reads one note, with its type (null for an individual comment) and project', async () => {
    const created = await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: { body: 'Single' } });
    const { status, body } = await kiln.api('GET', `/projects/${project.id}/issues/1/notes/${created.body.id}`, { token: owner.token });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: created.body.id, body: 'Single', type: null, project_id: project.id, noteable_iid: 1 });
  });

  it('answers 404 Not found for a note of another issue', async () => {
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Other' } });
    const other = await kiln.api('POST', `/projects/${project.id}/issues/2/notes`, { token: owner.token, body: { body: 'Elsewhere' } });
    expect((await kiln.api('GET', `/projects/${project.id}/issues/1/notes/${other.body.id}`, { token: owner.token })).body).toEqual({ message: '404 Not found' });
  });
});

describe('POST /api/v4/projects/:id/issues/:issue_iid/notes with created_at and internal', () => {
  it('as the owner backdates a note with created_at', async () => {
    const { body } = await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: { body: 'Imported', created_at: '2020-02-02T02:02:02.000Z' } });
    expect(body.created_at).toBe('2020-02-02T02:02:02.000Z');
  });

  it('refuses internal notes with a 400 naming the parameter (Kiln does not hide notes from Guests)', async () => {
    const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: { body: 'Hush', internal: true } });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'internal is not supported' });
  });
});

describe('PUT /api/v4/projects/:id/issues/:issue_iid/notes/:note_id', () => {
  it('as the author changes the note and reads it back', async () => {
    const created = await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: { body: 'Typo' } });
    kiln.clock.advance(1000);
    const { status, body } = await kiln.api('PUT', `/projects/${project.id}/issues/1/notes/${created.body.id}`, { token: owner.token, body: { body: 'Fixed' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ body: 'Fixed', updated_at: '2026-11-22T08:00:01.000Z' });
    expect((await kiln.api('GET', `/projects/${project.id}/issues/1/notes/${created.body.id}`, { token: owner.token })).body.body).toBe('Fixed');
  });

  it('as someone else answers 403, and 400 without a body', async () => {
    const publicProject = await kiln.createProject(owner, 'open-notes', { visibility: 'public' });
    await kiln.api('POST', `/projects/${publicProject.id}/issues`, { token: owner.token, body: { title: 'Open' } });
    const note = await kiln.api('POST', `/projects/${publicProject.id}/issues/1/notes`, { token: owner.token, body: { body: 'Owner says' } });
    expect((await kiln.api('PUT', `/projects/${publicProject.id}/issues/1/notes/${note.body.id}`, { token: stranger.token, body: { body: 'hijack' } })).status).toBe(403);
    expect((await kiln.api('PUT', `/projects/${publicProject.id}/issues/1/notes/${note.body.id}`, { token: owner.token, body: {} })).body).toEqual({ error: 'body is missing' });
  });
});

describe('DELETE /api/v4/projects/:id/issues/:issue_iid/notes/:note_id', () => {
  it('as the author deletes the note (204), its `commented` event with it', async () => {
    const created = await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: { body: 'Regret' } });
    expect((await kiln.api('DELETE', `/projects/${project.id}/issues/1/notes/${created.body.id}`, { token: owner.token })).status).toBe(204);
    expect((await kiln.api('GET', `/projects/${project.id}/issues/1/notes/${created.body.id}`, { token: owner.token })).status).toBe(404);
    expect(await kiln.deps.db.selectFrom('events').select('id').where('target_type', '=', 'Note').where('target_id', '=', created.body.id).execute()).toEqual([]);
  });
});
