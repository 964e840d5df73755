// GET /issues and GET /groups/:id/issues (doc/api/issues.md) with GitLab's scopes and filters, and
// never a confidential issue for a caller the issue policy refuses, in pages and in X-Total.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let group: any;
let alpha: any;
let beta: any;
let milestone: any;

const titles = (body: any[]) => body.map((issue) => issue.title).sort();

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'org', { visibility: 'public' });
  const sub = await kiln.createGroup(owner, 'sub', { visibility: 'public', parent_id: group.id });
  alpha = await kiln.createProject(owner, 'alpha', { namespace_id: group.id, visibility: 'public' });
  beta = await kiln.createProject(owner, 'beta', { namespace_id: sub.id, visibility: 'private' });
  await kiln.addMember(owner, 'projects', alpha.id, reporter, ACCESS.reporter);
  await kiln.addMember(owner, 'projects', alpha.id, guest, ACCESS.guest);
  milestone = (await kiln.api('POST', `/projects/${alpha.id}/milestones`, { token: owner.token, body: { title: 'M1' } })).body;
  const create = async (project: any, user: TestUser, body: Record<string, unknown>) => {
    const answer = await kiln.api('POST', `/projects/${project.id}/issues`, { token: user.token, body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  };
  await create(alpha, owner, { title: 'Alpha open', labels: 'bug,ui', milestone_id: milestone.id, assignee_ids: [guest.id], due_date: '2026-11-22' });
  kiln.clock.advance(60_000);
  await create(alpha, owner, { title: 'Alpha secret', confidential: true, labels: 'bug' });
  kiln.clock.advance(60_000);
  await create(alpha, stranger, { title: 'Stranger secret', confidential: true });
  kiln.clock.advance(60_000);
  await create(beta, owner, { title: 'Beta private' });
  await create(beta, owner, { title: 'Beta secret', confidential: true });
  const elsewhere = await kiln.createProject(stranger, 'elsewhere', { visibility: 'public' });
  await create(elsewhere, stranger, { title: 'Elsewhere', issue_type: 'incident' });
});
afterAll(() => kiln.close());

describe('GET /api/v4/issues', () => {
  describe('as a signed-in user', () => {
    it('lists the issues they created by default (scope created_by_me)', async () => {
      expect(titles((await kiln.api('GET', '/issues', { token: stranger.token })).body)).toEqual(['Elsewhere', 'Stranger secret']);
      expect(titles((await kiln.api('GET', '/issues?scope=created-by-me', { token: owner.token })).body)).toEqual(['Alpha open', 'Alpha secret', 'Beta private', 'Beta secret']);
    });

    it('lists what is assigned to them with scope=assigned_to_me', async () => {
      expect(titles((await kiln.api('GET', '/issues?scope=assigned_to_me', { token: guest.token })).body)).toEqual(['Alpha open']);
    });

    it('scope=all: every issue they may read, never another\'s confidential issue, in pages and in X-Total', async () => {
      const { body, headers } = await kiln.api('GET', '/issues?scope=all', { token: stranger.token });
      expect(titles(body)).toEqual(['Alpha open', 'Elsewhere', 'Stranger secret']);
      expect(headers['x-total']).toBe('3');
      const guestView = await kiln.api('GET', '/issues?scope=all', { token: guest.token });
      expect(titles(guestView.body)).toEqual(['Alpha open', 'Elsewhere']);
      const reporterView = await kiln.api('GET', '/issues?scope=all', { token: reporter.token });
      expect(titles(reporterView.body)).toEqual(['Alpha open', 'Alpha secret', 'Elsewhere', 'Stranger secret']);
      const adminView = await kiln.api('GET', '/issues?scope=all', { token: kiln.root.token });
      expect(adminView.headers['x-total']).toBe('6');
    });

    it('answers 400 for an unknown scope', async () => {
      expect((await kiln.api('GET', '/issues?scope=mine', { token: owner.token })).body).toEqual({ error: 'scope does not have a valid value' });
    });
  });

  describe('anonymously', () => {
    it('answers 401 for the default scope, and lists only public, non-confidential issues with scope=all', async () => {
      expect((await kiln.api('GET', '/issues')).status).toBe(401);
      const { status, body } = await kiln.api('GET', '/issues?scope=all');
      expect(status).toBe(200);
      expect(titles(body)).toEqual(['Alpha open', 'Elsewhere']);
    });
  });

  describe('filters', () => {
    const find = async (query: string, user: TestUser = owner) => titles((await kiln.api('GET', `/issues?scope=all&${query}`, { token: user.token })).body);

    it('labels (all of them), None and Any', async () => {
      expect(await find('labels=bug')).toEqual(['Alpha open', 'Alpha secret']);
      expect(await find('labels=bug,ui')).toEqual(['Alpha open']);
      expect(await find('labels=None')).toEqual(['Beta private', 'Beta secret', 'Elsewhere', 'Stranger secret']);
      expect(await find('labels=Any')).toEqual(['Alpha open', 'Alpha secret']);
    });

    it('milestone by title, None and Any', async () => {
      expect(await find('milestone=M1')).toEqual(['Alpha open']);
      expect(await find('milestone=Any')).toEqual(['Alpha open']);
      expect((await find('milestone=None')).length).toBe(5);
    });

    it('assignee_id (None, Any), assignee_username, author_id and author_username', async () => {
      expect(await find(`assignee_id=${guest.id}`)).toEqual(['Alpha open']);
      expect(await find('assignee_id=Any')).toEqual(['Alpha open']);
      expect((await find('assignee_id=None')).length).toBe(5);
      expect(await find('assignee_username=guest')).toEqual(['Alpha open']);
      expect(await find(`author_id=${stranger.id}`)).toEqual(['Elsewhere', 'Stranger secret']);
      expect(await find('author_username=STRANGER')).toEqual(['Elsewhere', 'Stranger secret']);
      expect((await kiln.api('GET', `/issues?assignee_id=${guest.id}&assignee_username=guest`, { token: owner.token })).body).toEqual({ error: 'assignee_id, assignee_username are mutually exclusive' });
      expect((await kiln.api('GET', '/issues?assignee_id=someone', { token: owner.token })).body).toEqual({ error: 'assignee_id does not have a valid value' });
    });

    it('search, confidential, issue_type, iids, state, due_date and the created and updated times', async () => {
      expect(await find('search=secret')).toEqual(['Alpha secret', 'Beta secret', 'Stranger secret']);
      expect(await find('search=secret&in=description')).toEqual([]);
      expect(await find('confidential=true')).toEqual(['Alpha secret', 'Beta secret', 'Stranger secret']);
      expect(await find('issue_type=incident')).toEqual(['Elsewhere']);
      expect(await find('iids[]=2&iids[]=3')).toEqual(['Alpha secret', 'Beta secret', 'Stranger secret']);
      expect(await find('iids=3')).toEqual(['Stranger secret']);
      expect(await find('state=closed')).toEqual([]);
      expect(await find('due_date=today')).toEqual(['Alpha open']);
      expect(await find('due_date=0')).not.toContain('Alpha open');
      expect(await find('created_before=2026-11-22T08:00:30Z')).toEqual(['Alpha open']);
      expect(await find('created_after=2026-11-22T08:02:30Z')).toEqual(['Beta private', 'Beta secret', 'Elsewhere']);
      expect((await kiln.api('GET', '/issues?created_after=later', { token: owner.token })).body).toEqual({ error: 'created_after is invalid' });
    });

    it('orders by title or created_at, ascending or descending', async () => {
      const ordered = async (query: string) => (await kiln.api('GET', `/issues?scope=all&${query}`, { token: owner.token })).body.map((issue: any) => issue.title);
      expect(await ordered('order_by=title&sort=asc')).toEqual(['Alpha open', 'Alpha secret', 'Beta private', 'Beta secret', 'Elsewhere', 'Stranger secret']);
      expect((await ordered('order_by=created_at&sort=asc'))[0]).toBe('Alpha open');
      expect((await kiln.api('GET', '/issues?order_by=colour', { token: owner.token })).body).toEqual({ error: 'order_by does not have a valid value' });
    });

    it('shows label details with with_labels_details=true', async () => {
      const { body } = await kiln.api('GET', '/issues?labels=ui&with_labels_details=true', { token: owner.token });
      expect(body[0].labels.map((label: any) => [label.name, label.color])).toEqual([['bug', '#6699cc'], ['ui', '#6699cc']]);
    });
  });
});

describe('GET /api/v4/groups/:id/issues', () => {
  it('as a non-member lists the readable issues of the group\'s projects and subgroups, without others\' confidential ones', async () => {
    const { status, body, headers } = await kiln.api('GET', `/groups/${group.id}/issues`, { token: stranger.token });
    expect(status).toBe(200);
    expect(titles(body)).toEqual(['Alpha open', 'Stranger secret']);
    expect(headers['x-total']).toBe('2');
  });

  it('as a reporter of one project adds its confidential issues; the owner sees the subgroup\'s private project too', async () => {
    expect(titles((await kiln.api('GET', `/groups/${group.id}/issues`, { token: reporter.token })).body)).toEqual(['Alpha open', 'Alpha secret', 'Stranger secret']);
    expect(titles((await kiln.api('GET', `/groups/${group.id}/issues`, { token: owner.token })).body)).toEqual(['Alpha open', 'Alpha secret', 'Beta private', 'Beta secret', 'Stranger secret']);
  });

  it('anonymously lists public, non-confidential issues, and filters like /issues', async () => {
    expect(titles((await kiln.api('GET', `/groups/${group.id}/issues`)).body)).toEqual(['Alpha open']);
    expect(titles((await kiln.api('GET', `/groups/${group.id}/issues?labels=None`, { token: owner.token })).body)).toEqual(['Beta private', 'Beta secret', 'Stranger secret']);
  });

  it('answers 404 Group Not Found for a group the caller cannot read', async () => {
    const hidden = await kiln.createGroup(owner, 'hidden');
    expect((await kiln.api('GET', `/groups/${hidden.id}/issues`, { token: stranger.token })).body).toEqual({ message: '404 Group Not Found' });
  });
});
