import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { testKiln, testSecrets, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { startKiln, type Kiln } from '../../src/bootstrap.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let guest: TestUser;
let reporter: TestUser;
let stranger: TestUser;
let project: { id: number; path_with_namespace: string };

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  guest = await kiln.createUser('guest');
  reporter = await kiln.createUser('reporter');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'tracker');
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
});
afterAll(() => kiln.close());

describe('POST /api/v4/projects/:id/issues', () => {
  it('creates an issue (201) with iid 1 and GitLab\'s fields', async () => {
    const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'First', description: 'Body' } });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      iid: 1,
      project_id: project.id,
      title: 'First',
      description: 'Body',
      state: 'opened',
      issue_type: 'issue',
      type: 'ISSUE',
      confidential: false,
      closed_at: null,
      user_notes_count: 0,
      web_url: 'http://kiln.test/owner/tracker/-/issues/1',
      references: { short: '#1', full: 'owner/tracker#1' },
    });
    expect(body.author).toMatchObject({ username: 'owner', avatar_url: 'http://kiln.test/-/avatars/owner.svg' });
    expect(body.created_at).toBe('2026-11-22T08:00:00.000Z');
  });

  it('hands out per-project iids: another project starts at 1 again', async () => {
    const second = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Second' } });
    expect(second.body.iid).toBe(2);
    const other = await kiln.createProject(owner, 'other-tracker');
    expect((await kiln.api('POST', `/projects/${other.id}/issues`, { token: owner.token, body: { title: 'Elsewhere' } })).body.iid).toBe(1);
  });

  it('creates an incident with issue_type=incident', async () => {
    const { body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Down', issue_type: 'incident' } });
    expect(body).toMatchObject({ issue_type: 'incident', type: 'INCIDENT' });
  });

  it('answers 400 "title is missing" without a title', async () => {
    expect((await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: {} })).body).toEqual({ error: 'title is missing' });
  });

  it('answers 400 with the model error for a blank title', async () => {
    const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: '  ' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { title: ["can't be blank"] } });
  });

  it('as a non-member of a private project answers 404 Project Not Found', async () => {
    const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: stranger.token, body: { title: 'x' } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Project Not Found' });
  });

  it('records a `created` event in the same transaction', async () => {
    const { body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Evented' } });
    const event = await kiln.deps.db.selectFrom('events').selectAll().where('target_type', '=', 'Issue').where('target_id', '=', body.id).executeTakeFirstOrThrow();
    expect(event).toMatchObject({ action: 'created', target_iid: body.iid, target_title: 'Evented' });
  });
});

describe('iid allocation under concurrency', () => {
  it('30 concurrent creations on two nodes sharing the database get 30 distinct consecutive iids', async () => {
    const race = await kiln.createProject(owner, 'race');
    const secondDatabase = kiln.testDb.reopen();
    const node2: Kiln = await startKiln(kiln.config, { clock: kiln.clock, log: pino({ level: 'silent' }), database: secondDatabase, secrets: testSecrets() });
    try {
      const create = (app: Kiln['app'], n: number) =>
        app.inject({ method: 'POST', url: `/api/v4/projects/${race.id}/issues`, headers: { 'private-token': owner.token, 'content-type': 'application/json' }, payload: JSON.stringify({ title: `race ${n}` }) });
      const responses = await Promise.all(Array.from({ length: 30 }, (_, n) => create(n % 2 === 0 ? kiln.app : node2.app, n)));
      expect(responses.map((response) => response.statusCode)).toEqual(Array(30).fill(201));
      const iids = responses.map((response) => JSON.parse(response.body).iid).sort((a: number, b: number) => a - b);
      expect(iids).toEqual(Array.from({ length: 30 }, (_, n) => n + 1));
    } finally {
      await node2.close();
    }
  });
});

describe('GET /api/v4/projects/:id/issues', () => {
  it('lists newest first with pagination headers', async () => {
    const { status, body, headers } = await kiln.api('GET', `/projects/${project.id}/issues?per_page=2`, { token: guest.token });
    expect(status).toBe(200);
    expect(body).toHaveLength(2);
    expect(body[0].iid).toBeGreaterThan(body[1].iid);
    expect(headers['x-per-page']).toBe('2');
    expect(headers.link).toContain('rel="next"');
  });

  it('filters by state and issue_type', async () => {
    const closedOnes = await kiln.api('GET', `/projects/${project.id}/issues?state=closed`, { token: owner.token });
    expect(closedOnes.body.every((issue: { state: string }) => issue.state === 'closed')).toBe(true);
    const incidents = await kiln.api('GET', `/projects/${project.id}/issues?issue_type=incident`, { token: owner.token });
    expect(incidents.body.map((issue: { title: string }) => issue.title)).toEqual(['Down']);
  });

  it('finds issues by search in the title', async () => {
    const { body } = await kiln.api('GET', `/projects/${project.id}/issues?search=evented`, { token: owner.token });
    expect(body.map((issue: { title: string }) => issue.title)).toEqual(['Evented']);
  });

  it('answers 400 for an unknown state', async () => {
    expect((await kiln.api('GET', `/projects/${project.id}/issues?state=sleeping`, { token: owner.token })).body).toEqual({ error: 'state does not have a valid value' });
  });
});

describe('GET /api/v4/projects/:id/issues/:issue_iid', () => {
  it('finds an issue by iid through its project (URL-encoded path too)', async () => {
    const { status, body } = await kiln.api('GET', '/projects/owner%2Ftracker/issues/1', { token: reporter.token });
    expect(status).toBe(200);
    expect(body.title).toBe('First');
  });

  it('answers 404 {"message":"404 Not found"} for a missing iid', async () => {
    const { status, body } = await kiln.api('GET', `/projects/${project.id}/issues/999`, { token: owner.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Not found' });
  });

  it('answers 400 "issue_iid is invalid" for a non-numeric iid', async () => {
    expect((await kiln.api('GET', `/projects/${project.id}/issues/abc`, { token: owner.token })).body).toEqual({ error: 'issue_iid is invalid' });
  });
});

describe('PUT /api/v4/projects/:id/issues/:issue_iid', () => {
  it('as a reporter closes an issue with state_event=close, then reopens it', async () => {
    const closed = await kiln.api('PUT', `/projects/${project.id}/issues/1`, { token: reporter.token, body: { state_event: 'close' } });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ state: 'closed', closed_at: '2026-11-22T08:00:00.000Z' });
    expect(closed.body.closed_by).toMatchObject({ username: 'reporter' });
    const reopened = await kiln.api('PUT', `/projects/${project.id}/issues/1`, { token: reporter.token, body: { state_event: 'reopen' } });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null });
  });

  it('closing twice records one `closed` event', async () => {
    const { body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Twice' } });
    await Promise.all([1, 2].map(() => kiln.api('PUT', `/projects/${project.id}/issues/${body.iid}`, { token: owner.token, body: { state_event: 'close' } })));
    const events = await kiln.deps.db.selectFrom('events').selectAll().where('target_id', '=', body.id).where('action', '=', 'closed').execute();
    expect(events).toHaveLength(1);
  });

  it('changes title, description and issue_type', async () => {
    const { body } = await kiln.api('PUT', `/projects/${project.id}/issues/2`, { token: owner.token, body: { title: 'Renamed', description: 'New', issue_type: 'incident' } });
    expect(body).toMatchObject({ title: 'Renamed', description: 'New', issue_type: 'incident' });
  });

  it('as a guest changes their own issue but not someone else\'s (403)', async () => {
    const own = await kiln.api('POST', `/projects/${project.id}/issues`, { token: guest.token, body: { title: 'Guest issue' } });
    expect((await kiln.api('PUT', `/projects/${project.id}/issues/${own.body.iid}`, { token: guest.token, body: { title: 'Mine' } })).status).toBe(200);
    const { status, body } = await kiln.api('PUT', `/projects/${project.id}/issues/1`, { token: guest.token, body: { title: 'Not mine' } });
    expect(status).toBe(403);
    expect(body).toEqual({ message: '403 Forbidden' });
  });

  it('answers 400 for an unknown state_event', async () => {
    expect((await kiln.api('PUT', `/projects/${project.id}/issues/1`, { token: owner.token, body: { state_event: 'explode' } })).body).toEqual({ error: 'state_event does not have a valid value' });
  });
});
