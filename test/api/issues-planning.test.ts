// Labels, assignees, milestones and due dates on issues, and deleting issues (doc/api/issues.md):
// every documented parameter of the issue writes is stored and read back, or refused with a 400 naming
// it; callers without set_issue_metadata have GitLab's metadata parameters ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let maintainer: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;
let milestone: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maintainer');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'planner');
  await kiln.addMember(owner, 'projects', project.id, maintainer, ACCESS.maintainer);
  await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  milestone = (await kiln.api('POST', `/projects/${project.id}/milestones`, { token: owner.token, body: { title: 'v1', due_date: '2026-12-31' } })).body;
  await kiln.api('POST', `/projects/${project.id}/labels`, { token: owner.token, body: { name: 'existing', color: '#123456' } });
});
afterAll(() => kiln.close());

const issues = () => `/projects/${project.id}/issues`;

describe('POST /api/v4/projects/:id/issues', () => {
  describe('as the owner', () => {
    it('stores every documented parameter and reads each back', async () => {
      const sent = {
        title: 'Everything',
        description: 'All the fields',
        confidential: true,
        assignee_ids: [reporter.id, guest.id],
        milestone_id: milestone.id,
        labels: 'existing,new-one',
        due_date: '2026-12-24',
        discussion_locked: true,
        issue_type: 'incident',
        created_at: '2026-01-02T03:04:05.000Z',
        iid: 50,
      };
      const { status, body } = await kiln.api('POST', issues(), { token: owner.token, body: sent });
      expect(status).toBe(201);
      const read = (await kiln.api('GET', `${issues()}/50`, { token: owner.token })).body;
      for (const issue of [body, read]) {
        expect(issue).toMatchObject({
          iid: 50,
          title: 'Everything',
          description: 'All the fields',
          confidential: true,
          labels: ['existing', 'new-one'],
          due_date: '2026-12-24',
          discussion_locked: true,
          issue_type: 'incident',
          created_at: '2026-01-02T03:04:05.000Z',
          milestone: { id: milestone.id, iid: 1, title: 'v1', project_id: project.id, due_date: '2026-12-31', state: 'active' },
        });
        expect(issue.assignees.map((user: any) => user.username)).toEqual(['reporter', 'guest']);
        expect(issue.assignee.username).toBe('reporter');
      }
      // The next issue continues after the chosen iid.
      expect((await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Next' } })).body.iid).toBe(51);
    });

    it('creates the labels it names that the project lacks, in GitLab\'s default colour', async () => {
      const { body } = await kiln.api('GET', `/projects/${project.id}/labels/new-one`, { token: owner.token });
      expect(body).toMatchObject({ name: 'new-one', color: '#6699cc', is_project_label: true });
    });

    it('keeps the labels of python-gitlab\'s list form and of a JSON array', async () => {
      const form = await kiln.request('POST', `/api/v4${issues()}`, { token: owner.token, form: { title: 'Form', labels: 'bug,ui' } });
      expect(JSON.parse(form.body).labels).toEqual(['bug', 'ui']);
      const json = await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Array', labels: ['bug', ' spaced '] } });
      expect(json.body.labels).toEqual(['bug', 'spaced']);
    });

    it('answers 400 "has already been taken" for an iid in use', async () => {
      const { status, body } = await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Dup', iid: 50 } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { iid: ['has already been taken'] } });
    });

    it('refuses with a 400 naming it what Kiln cannot store', async () => {
      expect((await kiln.api('POST', issues(), { token: owner.token, body: { title: 'x', milestone_id: 999999 } })).body).toEqual({ error: 'milestone_id does not have a valid value' });
      expect((await kiln.api('POST', issues(), { token: owner.token, body: { title: 'x', due_date: '2026-02-30' } })).body).toEqual({ error: 'due_date is invalid' });
      expect((await kiln.api('POST', issues(), { token: owner.token, body: { title: 'x', created_at: 'yesterday' } })).body).toEqual({ error: 'created_at is invalid' });
      expect((await kiln.api('POST', issues(), { token: owner.token, body: { title: 'x', merge_request_to_resolve_discussions_of: 1 } })).body).toEqual({ error: 'merge_request_to_resolve_discussions_of is not supported' });
      expect((await kiln.api('POST', issues(), { token: owner.token, body: { title: 'x', weight: 3 } })).body).toEqual({ error: 'weight is not supported' });
      expect((await kiln.api('POST', issues(), { token: owner.token, body: { title: 'x', assignee_ids: ['me'] } })).body).toEqual({ error: 'assignee_ids is invalid' });
    });
  });

  describe('as a reporter', () => {
    it('ignores created_at and iid (Owners and administrators only), as GitLab does', async () => {
      const { body } = await kiln.api('POST', issues(), { token: reporter.token, body: { title: 'Backdated?', created_at: '2020-01-01T00:00:00Z', iid: 900 } });
      expect(body.created_at).toBe('2026-11-22T08:00:00.000Z');
      expect(body.iid).not.toBe(900);
    });
  });

  describe('as a guest', () => {
    it('sets metadata on a new issue (GitLab lets project members do so) but creates no labels', async () => {
      const { body } = await kiln.api('POST', issues(), { token: guest.token, body: { title: 'Guest planned', labels: 'existing,guest-made', milestone_id: milestone.id, due_date: '2026-12-01', assignee_ids: [guest.id] } });
      expect(body).toMatchObject({ labels: ['existing'], milestone: { id: milestone.id }, due_date: '2026-12-01' });
      expect(body.assignees.map((user: any) => user.username)).toEqual(['guest']);
      expect((await kiln.api('GET', `/projects/${project.id}/labels/guest-made`, { token: owner.token })).status).toBe(404);
    });
  });

  describe('assignees', () => {
    it('drops users who cannot read the project, and unknown users, silently (GitLab\'s filter_assignees)', async () => {
      const { body } = await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Assigned', assignee_ids: [stranger.id, maintainer.id, 987654] } });
      expect(body.assignees.map((user: any) => user.username)).toEqual(['maintainer']);
    });

    it('takes the deprecated assignee_id', async () => {
      const { body } = await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Single', assignee_id: reporter.id } });
      expect(body.assignee.username).toBe('reporter');
    });
  });
});

describe('PUT /api/v4/projects/:id/issues/:issue_iid', () => {
  let iid: number;
  beforeAll(async () => {
    iid = (await kiln.api('POST', issues(), { token: owner.token, body: { title: 'To change', labels: 'existing' } })).body.iid;
  });

  describe('as a reporter', () => {
    it('stores every documented parameter and reads each back', async () => {
      const sent = {
        title: 'Changed', description: 'Now', confidential: true, assignee_ids: [maintainer.id], milestone_id: milestone.id,
        labels: 'alpha,beta', due_date: '2027-01-15', discussion_locked: false, issue_type: 'incident',
      };
      const { status, body } = await kiln.api('PUT', `${issues()}/${iid}`, { token: reporter.token, body: sent });
      expect(status).toBe(200);
      const read = (await kiln.api('GET', `${issues()}/${iid}`, { token: reporter.token })).body;
      for (const issue of [body, read]) {
        expect(issue).toMatchObject({ title: 'Changed', description: 'Now', confidential: true, labels: ['alpha', 'beta'], due_date: '2027-01-15', discussion_locked: false, issue_type: 'incident', milestone: { id: milestone.id } });
        expect(issue.assignees.map((user: any) => user.username)).toEqual(['maintainer']);
      }
    });

    it('adds and removes labels with add_labels and remove_labels', async () => {
      const { body } = await kiln.api('PUT', `${issues()}/${iid}`, { token: reporter.token, body: { add_labels: 'gamma,existing', remove_labels: 'alpha' } });
      expect(body.labels).toEqual(['beta', 'existing', 'gamma']);
    });

    it('clears assignees, milestone and due date with empty values', async () => {
      const { body } = await kiln.api('PUT', `${issues()}/${iid}`, { token: reporter.token, body: { assignee_ids: [], milestone_id: null, due_date: null, labels: '' } });
      expect(body).toMatchObject({ assignees: [], assignee: null, milestone: null, due_date: null, labels: [] });
      const zero = await kiln.api('PUT', `${issues()}/${iid}`, { token: reporter.token, body: { assignee_ids: [maintainer.id] } });
      expect(zero.body.assignees).toHaveLength(1);
      expect((await kiln.api('PUT', `${issues()}/${iid}`, { token: reporter.token, body: { assignee_id: 0 } })).body.assignees).toEqual([]);
    });

    it('ignores updated_at (Owners only) and takes it from the owner', async () => {
      expect((await kiln.api('PUT', `${issues()}/${iid}`, { token: reporter.token, body: { title: 'x', updated_at: '2020-01-01T00:00:00Z' } })).body.updated_at).toBe('2026-11-22T08:00:00.000Z');
      expect((await kiln.api('PUT', `${issues()}/${iid}`, { token: owner.token, body: { title: 'y', updated_at: '2025-05-05T05:05:05.000Z' } })).body.updated_at).toBe('2025-05-05T05:05:05.000Z');
    });

    it('answers 400 without anything to change', async () => {
      const { body } = await kiln.api('PUT', `${issues()}/${iid}`, { token: reporter.token, body: {} });
      expect(body.error).toMatch(/are missing, at least one parameter must be provided$/);
    });
  });

  describe('as a guest editing their own issue', () => {
    it('changes the title, but confidential, labels, assignees, milestone and due date are ignored (no admin_issue)', async () => {
      const own = await kiln.api('POST', issues(), { token: guest.token, body: { title: 'Mine' } });
      const { status, body } = await kiln.api('PUT', `${issues()}/${own.body.iid}`, {
        token: guest.token,
        body: { title: 'Still mine', confidential: true, labels: 'existing', assignee_ids: [guest.id], milestone_id: milestone.id, due_date: '2026-12-01', discussion_locked: true },
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({ title: 'Still mine', confidential: false, labels: [], assignees: [], milestone: null, due_date: null, discussion_locked: null });
    });
  });
});

describe('GET /api/v4/projects/:id/issues/:issue_iid/resource_label_events', () => {
  it('lists every label added and removed, with who and when, oldest first', async () => {
    const created = await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Labelled', labels: 'existing' } });
    await kiln.api('PUT', `${issues()}/${created.body.iid}`, { token: owner.token, body: { labels: 'beta' } });
    const { status, body } = await kiln.api('GET', `${issues()}/${created.body.iid}/resource_label_events`, { token: guest.token });
    expect(status).toBe(200);
    expect(body.map((event: any) => [event.action, event.label.name])).toEqual([['add', 'existing'], ['add', 'beta'], ['remove', 'existing']]);
    expect(body[0]).toMatchObject({ resource_type: 'Issue', resource_id: created.body.id, user: { username: 'owner' }, created_at: '2026-11-22T08:00:00.000Z' });
    expect(body[0].label).toMatchObject({ color: '#123456' });
    const one = await kiln.api('GET', `${issues()}/${created.body.iid}/resource_label_events/${body[1].id}`, { token: guest.token });
    expect(one.body).toEqual(body[1]);
    expect((await kiln.api('GET', `${issues()}/${created.body.iid}/resource_label_events/999999`, { token: guest.token })).body).toEqual({ message: '404 ResourceLabelEvent Not Found' });
  });
});

describe('DELETE /api/v4/projects/:id/issues/:issue_iid', () => {
  describe('as the owner', () => {
    it('deletes the issue (204) with its notes, and removes its events as GitLab does', async () => {
      const { body: issue } = await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Doomed', labels: 'existing', assignee_ids: [reporter.id] } });
      const note = await kiln.api('POST', `${issues()}/${issue.iid}/notes`, { token: owner.token, body: { body: 'bye' } });
      expect((await kiln.api('POST', `${issues()}/${issue.iid}/subscribe`, { token: guest.token })).status).toBe(201);
      const total = async () => Number((await kiln.api('GET', `/projects/${project.id}/events`, { token: owner.token })).headers['x-total']);
      // A later event keeps the newest event id where it was: only a forgotten count notices the deletion.
      await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Bystander' } });
      const before = await total();
      const { status, body } = await kiln.api('DELETE', `${issues()}/${issue.iid}`, { token: owner.token });
      expect(status).toBe(204);
      // The created and commented events went with the issue, and X-Total says so at once (no cached count).
      expect(await total()).toBe(before - 2);
      expect(body).toBeNull();
      expect((await kiln.api('GET', `${issues()}/${issue.iid}`, { token: owner.token })).status).toBe(404);
      const events = await kiln.deps.db.selectFrom('events').select('id').where((eb) => eb.or([
        eb.and([eb('target_type', '=', 'Issue'), eb('target_id', '=', issue.id)]),
        eb.and([eb('target_type', '=', 'Note'), eb('target_id', '=', note.body.id)]),
      ])).execute();
      expect(events).toEqual([]);
      expect(await kiln.deps.db.selectFrom('notes').select('id').where('id', '=', note.body.id).execute()).toEqual([]);
      expect(await kiln.deps.db.selectFrom('subscriptions').select('id').where('subscribable_type', '=', 'Issue').where('subscribable_id', '=', issue.id).execute()).toEqual([]);
    });

    it('answers 404 Issue Not Found for a missing issue', async () => {
      expect((await kiln.api('DELETE', `${issues()}/4242`, { token: owner.token })).body).toEqual({ message: '404 Issue Not Found' });
    });
  });

  describe('as a maintainer', () => {
    it('answers 403 (destroy_issue is for Owners and administrators)', async () => {
      const { body: issue } = await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Survivor' } });
      expect((await kiln.api('DELETE', `${issues()}/${issue.iid}`, { token: maintainer.token })).status).toBe(403);
      expect((await kiln.api('DELETE', `${issues()}/${issue.iid}`, { token: kiln.root.token })).status).toBe(204);
    });
  });
});

describe('discussion_locked', () => {
  it('lets members comment on a locked issue but not others (403), and keeps it from being reopened', async () => {
    const publicProject = await kiln.createProject(owner, 'open-planner', { visibility: 'public' });
    const { body: issue } = await kiln.api('POST', `/projects/${publicProject.id}/issues`, { token: owner.token, body: { title: 'Heated', discussion_locked: true } });
    const comment = (user: TestUser) => kiln.api('POST', `/projects/${publicProject.id}/issues/${issue.iid}/notes`, { token: user.token, body: { body: 'hi' } });
    expect((await comment(stranger)).status).toBe(403);
    expect((await kiln.api('POST', `/projects/${publicProject.id}/issues/${issue.iid}/discussions`, { token: stranger.token, body: { body: 'hi' } })).status).toBe(403);
    expect((await comment(owner)).status).toBe(201);
    await kiln.api('PUT', `/projects/${publicProject.id}/issues/${issue.iid}`, { token: owner.token, body: { state_event: 'close' } });
    expect((await kiln.api('PUT', `/projects/${publicProject.id}/issues/${issue.iid}`, { token: owner.token, body: { state_event: 'reopen' } })).body.state).toBe('closed');
    await kiln.api('PUT', `/projects/${publicProject.id}/issues/${issue.iid}`, { token: owner.token, body: { discussion_locked: false } });
    expect((await comment(stranger)).status).toBe(201);
    expect((await kiln.api('PUT', `/projects/${publicProject.id}/issues/${issue.iid}`, { token: owner.token, body: { state_event: 'reopen' } })).body.state).toBe('opened');
  });
});
