import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { recordEvent } from '../../src/platform/events/record-event.js';
import { createPersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let privateProject: any;
let publicProject: any;
let carolProject: any;

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function tokenWithScopes(user: TestUser, scopes: string[]): Promise<string> {
  return (await createPersonalAccessToken(kiln.deps, { userId: user.id, name: `scoped ${scopes.join(' ')}`, scopes })).token;
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  carol = await kiln.createUser('carol');
  privateProject = await kiln.createProject(alice, 'secret'); // alice: created
  publicProject = await kiln.createProject(alice, 'open', { visibility: 'public' }); // alice: created
  carolProject = await kiln.createProject(carol, 'carols'); // carol: created, alice not a member
  await kiln.addMember(alice, 'projects', privateProject.id, bob, 30); // bob: joined
  kiln.clock.advance(1000);
  const issue = await kiln.api('POST', `/projects/${privateProject.id}/issues`, { token: bob.token, body: { title: 'Broken build' } }); // bob: created Issue
  await kiln.api('POST', `/projects/${privateProject.id}/issues/${issue.body.iid}/notes`, { token: alice.token, body: { body: 'Looking into it' } }); // alice: commented Note
  await kiln.api('PUT', `/projects/${privateProject.id}/issues/${issue.body.iid}`, { token: alice.token, body: { state_event: 'close' } }); // alice: closed
});
afterAll(() => kiln.close());

describe('GET /api/v4/events', () => {
  describe('as a user without scope', () => {
    it('lists only the events the caller authored, newest first, in the specification shape', async () => {
      const { status, body, headers } = await kiln.api('GET', '/events', { token: alice.token });
      expect(status).toBe(200);
      expect(headers['content-type']).toBe('application/json');
      expect(body.map((e: any) => e.action_name)).toEqual(['closed', 'commented on', 'created', 'created']);
      expect(body.every((e: any) => e.author_id === alice.id)).toBe(true);
      const created = body[3];
      expect(created).toEqual({
        id: expect.any(Number),
        title: null,
        project_id: privateProject.id,
        action_name: 'created',
        target_id: null,
        target_iid: null,
        target_type: null,
        author_id: alice.id,
        target_title: null,
        created_at: '2026-11-22T08:00:00.000Z',
        author: { id: alice.id, username: 'alice', name: 'User alice', state: 'active', avatar_url: expect.any(String), web_url: 'http://kiln.test/alice' },
        author_username: 'alice',
      });
      expect(headers['x-total']).toBe('4');
    });

    it('answers the closed issue event with its target and the issue iid', async () => {
      const { body } = await kiln.api('GET', '/events', { token: alice.token, query: { action: 'closed' } });
      expect(body).toHaveLength(1);
      expect(body[0]).toMatchObject({ action_name: 'closed', target_type: 'Issue', target_iid: 1, target_title: 'Broken build' });
      expect(body[0].created_at).toMatch(ISO_MS);
    });
  });

  describe('as a user with scope=all', () => {
    it('adds every event of the projects the caller is a member of, and none of other projects', async () => {
      const { body } = await kiln.api('GET', '/events', { token: alice.token, query: { scope: 'all' } });
      const authors = new Set(body.map((e: any) => e.author_username));
      expect(authors).toEqual(new Set(['alice', 'bob']));
      expect(body.map((e: any) => e.action_name)).toContain('joined');
      expect(body.some((e: any) => e.project_id === carolProject.id)).toBe(false);
    });

    it('ignores public projects the caller is not a member of', async () => {
      const { body } = await kiln.api('GET', '/events', { token: bob.token, query: { scope: 'all' } });
      expect(body.some((e: any) => e.project_id === publicProject.id)).toBe(false);
      expect(body.some((e: any) => e.project_id === privateProject.id)).toBe(true);
    });
  });

  describe('filters', () => {
    it('filters by target_type in lower case and answers capitalised types', async () => {
      const notes = await kiln.api('GET', '/events', { token: alice.token, query: { target_type: 'note' } });
      expect(notes.body.map((e: any) => e.target_type)).toEqual(['Note']);
      const issues = await kiln.api('GET', '/events', { token: alice.token, query: { target_type: 'issue', scope: 'all' } });
      expect(issues.body.map((e: any) => e.target_type)).toEqual(['Issue', 'Issue']);
    });

    it('target_type=project matches only events whose target is literally a Project (not project creation)', async () => {
      const { status, body } = await kiln.api('GET', '/events', { token: alice.token, query: { target_type: 'project' } });
      expect(status).toBe(200);
      expect(body).toEqual([]);
    });

    it('sorts by id ascending with sort=asc', async () => {
      const { body } = await kiln.api('GET', '/events', { token: alice.token, query: { sort: 'asc' } });
      const ids = body.map((e: any) => e.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
      expect(body[0].action_name).toBe('created');
    });

    it.each([
      [{ action: 'opened' }, 'action does not have a valid value'],
      [{ target_type: 'Issue' }, 'target_type does not have a valid value'],
      [{ target_type: 'wiki_page' }, 'target_type does not have a valid value'],
      [{ sort: 'newest' }, 'sort does not have a valid value'],
      [{ before: 'yesterday' }, 'before is invalid'],
      [{ after: '2026-02-30' }, 'after is invalid'],
      [{ per_page: 0 }, 'per_page has a value not allowed'],
    ])('answers 400 in Grape words for %o', async (query, error) => {
      const { status, body } = await kiln.api('GET', '/events', { token: alice.token, query });
      expect(status).toBe(400);
      expect(body).toEqual({ error });
    });

    it('accepts every action of the vocabulary as a filter', async () => {
      for (const action of ['approved', 'created', 'updated', 'closed', 'reopened', 'pushed', 'commented', 'merged', 'joined', 'left', 'destroyed', 'expired']) {
        const { status } = await kiln.api('GET', '/events', { token: alice.token, query: { action } });
        expect(status).toBe(200);
      }
    });
  });

  describe('before and after', () => {
    let dave: TestUser;
    const stamps = ['2026-11-19T12:00:00.000Z', '2026-11-19T23:59:59.999Z', '2026-11-20T00:00:00.000Z', '2026-11-20T23:59:59.999Z', '2026-11-21T00:00:00.000Z'];
    beforeAll(async () => {
      dave = await kiln.createUser('dave');
      const project = await kiln.createProject(dave, 'edges');
      await kiln.deps.db.deleteFrom('events').where('author_id', '=', dave.id).execute();
      for (const stamp of stamps) {
        await recordEvent(kiln.deps.db, kiln.deps.clock, { projectId: project.id, authorId: dave.id, action: 'updated', target: { type: 'Issue', id: 1, iid: 1, title: stamp }, createdAt: Date.parse(stamp) });
      }
    });
    const titles = async (query: Record<string, string>) => (await kiln.api('GET', '/events', { token: dave.token, query: { sort: 'asc', ...query } })).body.map((e: any) => e.target_title);

    it('after excludes the whole given day', async () => {
      expect(await titles({ after: '2026-11-19' })).toEqual(stamps.slice(2));
      expect(await titles({ after: '2026-11-20' })).toEqual(stamps.slice(4));
    });

    it('before excludes the whole given day', async () => {
      expect(await titles({ before: '2026-11-20' })).toEqual(stamps.slice(0, 2));
      expect(await titles({ before: '2026-11-21' })).toEqual(stamps.slice(0, 4));
    });

    it('both together leave the days strictly between', async () => {
      expect(await titles({ after: '2026-11-19', before: '2026-11-21' })).toEqual(stamps.slice(2, 4));
      expect(await titles({ after: '2026-11-20', before: '2026-11-21' })).toEqual([]);
    });
  });

  describe('pagination', () => {
    it('pages with per_page and GitLab headers', async () => {
      const { body, headers } = await kiln.api('GET', '/events', { token: alice.token, query: { per_page: 3, page: 2 } });
      expect(body).toHaveLength(1);
      expect(headers['x-total']).toBe('4');
      expect(headers['x-total-pages']).toBe('2');
      expect(headers['x-page']).toBe('2');
      expect(headers['x-prev-page']).toBe('1');
      expect(headers['x-next-page']).toBe('');
    });

    it('clamps per_page above 100 to 100', async () => {
      const { headers } = await kiln.api('GET', '/events', { token: alice.token, query: { per_page: 500 } });
      expect(headers['x-per-page']).toBe('100');
    });
  });

  describe('authentication and scopes', () => {
    it('answers 401 without a token', async () => {
      const { status, body } = await kiln.api('GET', '/events');
      expect(status).toBe(401);
      expect(body).toEqual({ message: '401 Unauthorized' });
    });

    it('admits read_user and read_api tokens', async () => {
      for (const scope of ['read_user', 'read_api']) {
        const { status, body } = await kiln.api('GET', '/events', { token: await tokenWithScopes(alice, [scope]) });
        expect(status).toBe(200);
        expect(body.length).toBeGreaterThan(0);
      }
    });

    it('refuses a token without an admitted scope with insufficient_scope listing read_user first', async () => {
      const { status, body } = await kiln.api('GET', '/events', { token: await tokenWithScopes(alice, ['read_repository']) });
      expect(status).toBe(403);
      expect(body).toMatchObject({ error: 'insufficient_scope', scope: 'read_user api read_api' });
    });
  });
});

describe('GET /api/v4/users/:id/events', () => {
  it('as another user, lists the events of projects the caller can read only', async () => {
    const { status, body } = await kiln.api('GET', `/users/${alice.id}/events`, { token: carol.token });
    expect(status).toBe(200);
    expect(body.map((e: any) => e.project_id)).toEqual([publicProject.id]);
  });

  it('as a member, finds the user by username and sees the shared project', async () => {
    const { body } = await kiln.api('GET', '/users/alice/events', { token: bob.token });
    expect(body.map((e: any) => e.action_name)).toEqual(['closed', 'commented on', 'created', 'created']);
  });

  it('answers 404 User Not Found for an unknown user', async () => {
    const { status, body } = await kiln.api('GET', '/users/nobody-here/events', { token: bob.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 User Not Found' });
  });

  it('admits a read_user token', async () => {
    const { status } = await kiln.api('GET', `/users/${alice.id}/events`, { token: await tokenWithScopes(bob, ['read_user']) });
    expect(status).toBe(200);
  });

  it('anonymously, lists the events of public projects only (GitLab serves it without a token)', async () => {
    const { status, body, headers } = await kiln.api('GET', `/users/${alice.id}/events`);
    expect(status).toBe(200);
    expect(body.map((e: any) => e.project_id)).toEqual([publicProject.id]);
    expect(headers['x-total']).toBe('1');
  });

  describe('a user with a private profile', () => {
    let erin: TestUser;
    beforeAll(async () => {
      erin = await kiln.createUser('erin');
      await kiln.createProject(erin, 'erin-public', { visibility: 'public' });
      await kiln.deps.db.updateTable('users').set({ private_profile: 1 }).where('id', '=', erin.id).execute();
    });

    it('shows others an empty list with headers, not 404', async () => {
      const { status, body, headers } = await kiln.api('GET', `/users/${erin.id}/events`, { token: bob.token });
      expect(status).toBe(200);
      expect(body).toEqual([]);
      expect(headers['x-total']).toBe('0');
    });

    it('shows the user and administrators the events', async () => {
      expect((await kiln.api('GET', `/users/${erin.id}/events`, { token: erin.token })).body).toHaveLength(1);
      expect((await kiln.api('GET', `/users/${erin.id}/events`, { token: kiln.root.token })).body).toHaveLength(1);
    });
  });
});

describe('GET /api/v4/projects/:id/events', () => {
  it('as a member, lists the project events with data null, by URL-encoded path', async () => {
    const { status, body } = await kiln.api('GET', '/projects/alice%2Fsecret/events', { token: bob.token });
    expect(status).toBe(200);
    expect(body.map((e: any) => e.action_name)).toEqual(['closed', 'commented on', 'opened', 'joined', 'created']);
    expect(body.every((e: any) => e.data === null && 'target_iid' in e)).toBe(true);
  });

  it('carries the note object on comment events', async () => {
    const { body } = await kiln.api('GET', `/projects/${privateProject.id}/events`, { token: bob.token, query: { target_type: 'note' } });
    expect(body).toHaveLength(1);
    const event = body[0];
    expect(event).toMatchObject({ action_name: 'commented on', target_type: 'Note', target_title: null, author_username: 'alice' });
    expect(event.target_iid).toBe(event.target_id);
    expect(event.note).toEqual({
      id: event.target_id,
      type: null,
      body: 'Looking into it',
      attachment: null,
      author: expect.objectContaining({ id: alice.id, username: 'alice' }),
      created_at: '2026-11-22T08:00:01.000Z',
      updated_at: '2026-11-22T08:00:01.000Z',
      system: false,
      noteable_id: expect.any(Number),
      noteable_type: 'Issue',
      resolvable: false,
      confidential: false,
      noteable_iid: 1,
      commands_changes: {},
    });
  });

  it('answers 404 Project Not Found to a non-member of a private project', async () => {
    const { status, body } = await kiln.api('GET', `/projects/${privateProject.id}/events`, { token: carol.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Project Not Found' });
  });

  it('refuses a read_user token: only api and read_api are admitted here', async () => {
    const { status, body } = await kiln.api('GET', `/projects/${privateProject.id}/events`, { token: await tokenWithScopes(bob, ['read_user']) });
    expect(status).toBe(403);
    expect(body).toMatchObject({ error: 'insufficient_scope', scope: 'api read_api' });
  });

  it('anonymously, lists the events of a public project and answers 404 for a private one', async () => {
    const open = await kiln.api('GET', `/projects/${publicProject.id}/events`);
    expect(open.status).toBe(200);
    expect(open.body.map((e: any) => e.action_name)).toEqual(['created']);
    const hidden = await kiln.api('GET', `/projects/${privateProject.id}/events`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
  });
});
