// Confidential issues (issue 13): visible only to Reporter and above, their author (and assignees, once
// issues have them) and administrators, in every list, count, direct read, update, note and event.
// Everyone else gets exactly what a missing issue gets: `404 Not found`, as GitLab's IssuesFinder answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let guest: TestUser;
let reporter: TestUser;
let stranger: TestUser;
let publicProject: any;
let privateProject: any;
let internalProject: any;

const NOT_FOUND = { message: '404 Not found' };
const titles = (body: any[]) => body.map((issue) => issue.title);

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  guest = await kiln.createUser('guest');
  reporter = await kiln.createUser('reporter');
  stranger = await kiln.createUser('stranger');
  publicProject = await kiln.createProject(owner, 'open-tracker', { visibility: 'public' });
  privateProject = await kiln.createProject(owner, 'closed-tracker');
  internalProject = await kiln.createProject(owner, 'inner-tracker', { visibility: 'internal' });
  for (const project of [publicProject, privateProject]) {
    await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
    await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
  }
  const create = async (project: any, user: TestUser, title: string, confidential = false) => {
    const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: user.token, body: { title, confidential } });
    expect(status).toBe(201);
    return body;
  };
  // Public project: #1 open, #2 the owner's secret (with a comment), #3 a stranger's own secret.
  await create(publicProject, owner, 'Open bug');
  await create(publicProject, owner, 'Security hole', true);
  await kiln.api('POST', `/projects/${publicProject.id}/issues/2/notes`, { token: owner.token, body: { body: 'patch pending' } });
  await create(publicProject, stranger, 'My own report', true);
  // Private project: #1 open, #2 the owner's secret, #3 the guest's own secret.
  await create(privateProject, owner, 'Private bug');
  await create(privateProject, owner, 'Private secret', true);
  await create(privateProject, guest, 'Guest secret', true);
  await create(internalProject, owner, 'Internal bug');
});
afterAll(() => kiln.close());

describe('GET /api/v4/projects/:id/issues', () => {
  describe('as a non-member of a public project', () => {
    it('lists the open issues and their own confidential ones only, and X-Total counts only those', async () => {
      const { status, body, headers } = await kiln.api('GET', `/projects/${publicProject.id}/issues`, { token: stranger.token });
      expect(status).toBe(200);
      expect(titles(body)).toEqual(['My own report', 'Open bug']);
      expect(headers['x-total']).toBe('2');
    });

    it('pages are never short: the hidden issue is filtered before paging', async () => {
      const { body, headers } = await kiln.api('GET', `/projects/${publicProject.id}/issues`, { token: stranger.token, query: { per_page: 1, page: 2 } });
      expect(titles(body)).toEqual(['Open bug']);
      expect(headers['x-total-pages']).toBe('2');
    });

    it('finds no confidential issue by search', async () => {
      const { body } = await kiln.api('GET', `/projects/${publicProject.id}/issues`, { token: stranger.token, query: { search: 'security' } });
      expect(body).toEqual([]);
    });
  });

  describe('anonymously', () => {
    it('lists the open issues of a public project without any confidential one', async () => {
      const { status, body, headers } = await kiln.api('GET', `/projects/${publicProject.id}/issues`);
      expect(status).toBe(200);
      expect(titles(body)).toEqual(['Open bug']);
      expect(headers['x-total']).toBe('1');
    });

    it('answers 404 Project Not Found for a private or internal project', async () => {
      for (const project of [privateProject, internalProject]) {
        const { status, body } = await kiln.api('GET', `/projects/${project.id}/issues`);
        expect(status).toBe(404);
        expect(body).toEqual({ message: '404 Project Not Found' });
      }
    });
  });

  describe('as a guest of a private project', () => {
    it('hides the confidential issues of others but lists their own', async () => {
      const { body, headers } = await kiln.api('GET', `/projects/${privateProject.id}/issues`, { token: guest.token });
      expect(titles(body)).toEqual(['Guest secret', 'Private bug']);
      expect(headers['x-total']).toBe('2');
    });
  });

  describe('as a reporter, the owner and an administrator', () => {
    it('lists every issue', async () => {
      for (const user of [reporter, owner, kiln.root]) {
        const { body, headers } = await kiln.api('GET', `/projects/${privateProject.id}/issues`, { token: user.token });
        expect(titles(body)).toEqual(['Guest secret', 'Private secret', 'Private bug']);
        expect(headers['x-total']).toBe('3');
      }
    });
  });
});

describe('GET /api/v4/projects/:id/issues/:issue_iid', () => {
  it('as a non-member of a public project answers 404 Not found for a confidential issue, as for a missing one', async () => {
    const { status, body } = await kiln.api('GET', `/projects/${publicProject.id}/issues/2`, { token: stranger.token });
    expect(status).toBe(404);
    expect(body).toEqual(NOT_FOUND);
    expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/1`, { token: stranger.token })).status).toBe(200);
  });

  it('anonymously reads an open issue of a public project but not a confidential one', async () => {
    expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/1`)).body.title).toBe('Open bug');
    expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/2`)).body).toEqual(NOT_FOUND);
    expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/3`)).body).toEqual(NOT_FOUND);
  });

  it('as a guest of a private project answers 404 for the confidential issue of someone else', async () => {
    expect((await kiln.api('GET', `/projects/${privateProject.id}/issues/2`, { token: guest.token })).body).toEqual(NOT_FOUND);
  });

  it('as the author (a guest, or a non-member) reads their own confidential issue', async () => {
    expect((await kiln.api('GET', `/projects/${privateProject.id}/issues/3`, { token: guest.token })).body).toMatchObject({ title: 'Guest secret', confidential: true });
    expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/3`, { token: stranger.token })).body).toMatchObject({ title: 'My own report', confidential: true });
  });

  it('as a reporter and as an administrator reads every confidential issue', async () => {
    for (const user of [reporter, kiln.root]) {
      expect((await kiln.api('GET', `/projects/${privateProject.id}/issues/2`, { token: user.token })).status).toBe(200);
      expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/3`, { token: user.token })).status).toBe(200);
    }
  });
});

describe('PUT /api/v4/projects/:id/issues/:issue_iid', () => {
  it('as a guest answers 404 for the confidential issue of someone else and changes nothing', async () => {
    const { status, body } = await kiln.api('PUT', `/projects/${privateProject.id}/issues/2`, { token: guest.token, body: { title: 'Leaked' } });
    expect(status).toBe(404);
    expect(body).toEqual(NOT_FOUND);
    expect((await kiln.api('GET', `/projects/${privateProject.id}/issues/2`, { token: owner.token })).body.title).toBe('Private secret');
  });

  it('as a non-member of a public project answers 404 for a confidential issue and 403 for an open one', async () => {
    expect((await kiln.api('PUT', `/projects/${publicProject.id}/issues/2`, { token: stranger.token, body: { title: 'x' } })).body).toEqual(NOT_FOUND);
    expect((await kiln.api('PUT', `/projects/${publicProject.id}/issues/1`, { token: stranger.token, body: { title: 'x' } })).status).toBe(403);
  });

  it('as the guest author changes their own confidential issue', async () => {
    const { status, body } = await kiln.api('PUT', `/projects/${privateProject.id}/issues/3`, { token: guest.token, body: { description: 'more detail' } });
    expect(status).toBe(200);
    expect(body.description).toBe('more detail');
  });

  it('hides an issue from non-members once a reporter makes it confidential', async () => {
    const { body: issue } = await kiln.api('POST', `/projects/${publicProject.id}/issues`, { token: owner.token, body: { title: 'Turns secret' } });
    expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/${issue.iid}`, { token: stranger.token })).status).toBe(200);
    expect((await kiln.api('PUT', `/projects/${publicProject.id}/issues/${issue.iid}`, { token: reporter.token, body: { confidential: true } })).body.confidential).toBe(true);
    expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/${issue.iid}`, { token: stranger.token })).body).toEqual(NOT_FOUND);
    expect(titles((await kiln.api('GET', `/projects/${publicProject.id}/issues`, { token: stranger.token })).body)).not.toContain('Turns secret');
    await kiln.api('PUT', `/projects/${publicProject.id}/issues/${issue.iid}`, { token: reporter.token, body: { state_event: 'close' } });
  });

  it('answers 401 without a token', async () => {
    expect((await kiln.api('PUT', `/projects/${publicProject.id}/issues/1`, { body: { title: 'x' } })).status).toBe(401);
  });
});

describe('GET /api/v4/projects/:id/issues/:issue_iid/notes', () => {
  it('as a non-member of a public project answers 404 Not found on a confidential issue', async () => {
    const { status, body } = await kiln.api('GET', `/projects/${publicProject.id}/issues/2/notes`, { token: stranger.token });
    expect(status).toBe(404);
    expect(body).toEqual(NOT_FOUND);
  });

  it('anonymously answers 404 on a confidential issue and lists the notes of an open one', async () => {
    expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/2/notes`)).body).toEqual(NOT_FOUND);
    const open = await kiln.api('GET', `/projects/${publicProject.id}/issues/1/notes`);
    expect(open.status).toBe(200);
    expect(open.body).toEqual([]);
  });

  it('as a guest of a private project answers 404 on the confidential issue of someone else', async () => {
    expect((await kiln.api('GET', `/projects/${privateProject.id}/issues/2/notes`, { token: guest.token })).body).toEqual(NOT_FOUND);
  });

  it('as a reporter lists the notes of a confidential issue', async () => {
    const { body } = await kiln.api('GET', `/projects/${publicProject.id}/issues/2/notes`, { token: reporter.token });
    expect(body.map((note: any) => note.body)).toEqual(['patch pending']);
  });
});

describe('POST /api/v4/projects/:id/issues/:issue_iid/notes', () => {
  const noteCount = async (project: any, iid: number) =>
    (await kiln.api('GET', `/projects/${project.id}/issues/${iid}/notes`, { token: owner.token })).body.length;

  it('as a non-member of a public project answers 404 on a confidential issue and adds nothing', async () => {
    const before = await noteCount(publicProject, 2);
    const { status, body } = await kiln.api('POST', `/projects/${publicProject.id}/issues/2/notes`, { token: stranger.token, body: { body: 'I see you' } });
    expect(status).toBe(404);
    expect(body).toEqual(NOT_FOUND);
    expect(await noteCount(publicProject, 2)).toBe(before);
  });

  it('as a non-member of a public project comments on an open issue', async () => {
    expect((await kiln.api('POST', `/projects/${publicProject.id}/issues/1/notes`, { token: stranger.token, body: { body: 'Same here' } })).status).toBe(201);
  });

  it('as a guest of a private project answers 404 on the confidential issue of someone else', async () => {
    expect((await kiln.api('POST', `/projects/${privateProject.id}/issues/2/notes`, { token: guest.token, body: { body: 'x' } })).body).toEqual(NOT_FOUND);
  });

  it('as the author and as a reporter comments on a confidential issue', async () => {
    expect((await kiln.api('POST', `/projects/${privateProject.id}/issues/3/notes`, { token: guest.token, body: { body: 'mine' } })).status).toBe(201);
    expect((await kiln.api('POST', `/projects/${privateProject.id}/issues/3/notes`, { token: reporter.token, body: { body: 'triaged' } })).status).toBe(201);
  });

  it('answers 401 without a token', async () => {
    expect((await kiln.api('POST', `/projects/${publicProject.id}/issues/1/notes`, { body: { body: 'x' } })).status).toBe(401);
  });
});

describe('GET /api/v4/projects/:id/events', () => {
  it('anonymously hides the confidential issues and the comments on them', async () => {
    const { status, body } = await kiln.api('GET', `/projects/${publicProject.id}/events`, { query: { per_page: 100 } });
    expect(status).toBe(200);
    const targets = body.map((e: any) => e.target_title).filter(Boolean);
    expect(targets).toContain('Open bug');
    expect(targets).not.toContain('Security hole');
    expect(targets).not.toContain('My own report');
    expect(body.some((e: any) => e.note?.body === 'patch pending')).toBe(false);
  });

  it('as the non-member author shows their own confidential issue but not the owner\'s', async () => {
    const { body } = await kiln.api('GET', `/projects/${publicProject.id}/events`, { token: stranger.token, query: { target_type: 'issue', per_page: 100 } });
    const targets = body.map((e: any) => e.target_title);
    expect(targets).toContain('My own report');
    expect(targets).not.toContain('Security hole');
  });
});

describe('GET /api/v4/users/:id/events', () => {
  it('anonymously shows events of public projects only: not internal ones, not confidential issues', async () => {
    const { body, headers } = await kiln.api('GET', `/users/${owner.id}/events`, { query: { per_page: 100 } });
    expect(new Set(body.map((e: any) => e.project_id))).toEqual(new Set([publicProject.id]));
    expect(body.map((e: any) => e.target_title)).not.toContain('Security hole');
    expect(headers['x-total']).toBe(String(body.length));
  });

  it('signed in, also shows internal projects', async () => {
    const { body } = await kiln.api('GET', `/users/${owner.id}/events`, { token: stranger.token, query: { per_page: 100 } });
    expect(body.map((e: any) => e.project_id)).toContain(internalProject.id);
    expect(body.map((e: any) => e.project_id)).not.toContain(privateProject.id);
  });
});

describe('confidential issues and their assignees (issue-policy.ts: assignees read them too)', () => {
  let assigned: any;
  let unassigned: any;
  beforeAll(async () => {
    // Assigned when created: the check is then on the project (GitLab's user_can_read? on a new issue).
    assigned = (await kiln.api('POST', `/projects/${privateProject.id}/issues`, { token: owner.token, body: { title: 'Assigned secret', confidential: true, assignee_ids: [guest.id] } })).body;
    unassigned = (await kiln.api('POST', `/projects/${privateProject.id}/issues`, { token: owner.token, body: { title: 'Unassigned secret', confidential: true } })).body;
    expect(assigned.assignees.map((user: any) => user.username)).toEqual(['guest']);
  });

  it('GET /api/v4/projects/:id/issues/:issue_iid: the guest assignee reads it, other guests get 404', async () => {
    expect((await kiln.api('GET', `/projects/${privateProject.id}/issues/${assigned.iid}`, { token: guest.token })).body.title).toBe('Assigned secret');
    expect((await kiln.api('GET', `/projects/${privateProject.id}/issues/${unassigned.iid}`, { token: guest.token })).body).toEqual(NOT_FOUND);
  });

  it('GET /api/v4/projects/:id/issues: the list and X-Total include it for the assignee', async () => {
    const { body, headers } = await kiln.api('GET', `/projects/${privateProject.id}/issues`, { token: guest.token });
    expect(titles(body)).toEqual(['Assigned secret', 'Guest secret', 'Private bug']);
    expect(headers['x-total']).toBe('3');
  });

  it('GET and POST /api/v4/projects/:id/issues/:issue_iid/notes: the assignee reads and comments', async () => {
    expect((await kiln.api('POST', `/projects/${privateProject.id}/issues/${assigned.iid}/notes`, { token: guest.token, body: { body: 'on it' } })).status).toBe(201);
    expect((await kiln.api('GET', `/projects/${privateProject.id}/issues/${assigned.iid}/notes`, { token: guest.token })).body.map((note: any) => note.body)).toEqual(['on it']);
  });

  it('GET /api/v4/issues?scope=assigned_to_me lists it for the assignee only', async () => {
    expect(titles((await kiln.api('GET', '/issues?scope=assigned_to_me', { token: guest.token })).body)).toEqual(['Assigned secret']);
    expect((await kiln.api('GET', '/issues?scope=assigned_to_me', { token: stranger.token })).body).toEqual([]);
  });

  it('once unassigned, the guest loses it again', async () => {
    await kiln.api('PUT', `/projects/${privateProject.id}/issues/${assigned.iid}`, { token: owner.token, body: { assignee_ids: [] } });
    expect((await kiln.api('GET', `/projects/${privateProject.id}/issues/${assigned.iid}`, { token: guest.token })).body).toEqual(NOT_FOUND);
    expect(titles((await kiln.api('GET', '/issues?scope=all', { token: guest.token })).body)).not.toContain('Assigned secret');
  });

  it('assigning someone who cannot read an existing confidential issue is dropped, as GitLab drops it', async () => {
    const { body } = await kiln.api('PUT', `/projects/${privateProject.id}/issues/${unassigned.iid}`, { token: owner.token, body: { assignee_ids: [guest.id] } });
    expect(body.assignees).toEqual([]);
    expect((await kiln.api('GET', `/projects/${privateProject.id}/issues/${unassigned.iid}`, { token: guest.token })).body).toEqual(NOT_FOUND);
  });

  it('GET /api/v4/projects/:id/issues/:issue_iid/discussions: a stranger gets 404 on a confidential issue', async () => {
    expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/2/discussions`, { token: stranger.token })).body).toEqual(NOT_FOUND);
    expect((await kiln.api('GET', `/projects/${publicProject.id}/issues/2/resource_label_events`, { token: stranger.token })).body).toEqual(NOT_FOUND);
  });
});

describe('GET /api/v4/projects/:id/events and a confidential issue\'s assignee', () => {
  it('shows the assignee the events of the confidential issue assigned to them, and hides them from other guests', async () => {
    const other = await kiln.createUser('other-guest');
    await kiln.addMember(owner, 'projects', privateProject.id, other, ACCESS.guest);
    await kiln.api('POST', `/projects/${privateProject.id}/issues`, { token: owner.token, body: { title: 'Assigned to other', confidential: true, assignee_ids: [other.id] } });
    const seen = async (user: TestUser) => (await kiln.api('GET', `/projects/${privateProject.id}/events`, { token: user.token, query: { target_type: 'issue', per_page: 100 } })).body.map((e: any) => e.target_title);
    expect(await seen(other)).toContain('Assigned to other');
    expect(await seen(guest)).not.toContain('Assigned to other');
  });
});
