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
