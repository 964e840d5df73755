// Project and group labels (doc/api/labels.md, group_labels.md): GitLab's paths, parameters, entities,
// status codes and errors; a project sees its ancestor groups' labels; Reporters manage them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let group: any;
let subgroup: any;
let project: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'org');
  subgroup = await kiln.createGroup(owner, 'team', { parent_id: group.id });
  project = await kiln.createProject(owner, 'app', { namespace_id: subgroup.id });
  await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
});
afterAll(() => kiln.close());

const labels = (path = `/projects/${project.id}/labels`) => path;

describe('POST /api/v4/projects/:id/labels', () => {
  describe('as a reporter', () => {
    it('creates a label with every documented parameter and reads each back (201)', async () => {
      const { status, body } = await kiln.api('POST', labels(), { token: reporter.token, body: { name: 'bug', color: '#FF0000', description: 'Something is broken', priority: 3, archived: false } });
      expect(status).toBe(201);
      expect(body).toEqual({
        id: expect.any(Number),
        name: 'bug',
        color: '#FF0000',
        description: 'Something is broken',
        description_html: 'Something is broken',
        text_color: '#FFFFFF',
        remove_on_close: false,
        archived: false,
        subscribed: false,
        priority: 3,
        is_project_label: true,
      });
      const read = await kiln.api('GET', `${labels()}/bug`, { token: guest.token });
      expect(read.body).toEqual(body);
      const byId = await kiln.api('GET', `${labels()}/${body.id}`, { token: guest.token });
      expect(byId.body.name).toBe('bug');
    });

    it('takes CSS colour names as GitLab does, stored as hex, with a dark text colour on light backgrounds', async () => {
      const { body } = await kiln.api('POST', labels(), { token: reporter.token, body: { name: 'docs', color: 'LightYellow' } });
      expect(body).toMatchObject({ color: '#FFFFE0', text_color: '#333333', description: null, priority: null });
      const short = await kiln.api('POST', labels(), { token: reporter.token, body: { name: 'short', color: '#abc' } });
      expect(short.body.color).toBe('#abc');
    });

    it('answers 400 "must be a valid color code" for a colour GitLab does not know (cyan is not in its list)', async () => {
      for (const color of ['cyan', '#12345', 'red;']) {
        const { status, body } = await kiln.api('POST', labels(), { token: reporter.token, body: { name: `c-${color}`, color } });
        expect(status).toBe(400);
        expect(body).toEqual({ message: { color: ['must be a valid color code'] } });
      }
    });

    it('answers 400 for a title with a comma, and Grape\'s errors for missing parameters', async () => {
      expect((await kiln.api('POST', labels(), { token: reporter.token, body: { name: 'a,b', color: 'red' } })).body).toEqual({ message: { title: ['is invalid'] } });
      expect((await kiln.api('POST', labels(), { token: reporter.token, body: { color: 'red' } })).body).toEqual({ error: 'name is missing' });
      expect((await kiln.api('POST', labels(), { token: reporter.token, body: { name: 'x' } })).body).toEqual({ error: 'color is missing' });
    });

    it('answers 409 "Label already exists" for a title the project already sees, its own or a group\'s', async () => {
      const again = await kiln.api('POST', labels(), { token: reporter.token, body: { name: 'bug', color: 'red' } });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ message: 'Label already exists' });
      await kiln.api('POST', `/groups/${group.id}/labels`, { token: owner.token, body: { name: 'org-wide', color: 'blue' } });
      expect((await kiln.api('POST', labels(), { token: reporter.token, body: { name: 'org-wide', color: 'red' } })).status).toBe(409);
    });
  });

  describe('as a guest', () => {
    it('answers 403 (admin_label is Reporter and above)', async () => {
      expect((await kiln.api('POST', labels(), { token: guest.token, body: { name: 'nope', color: 'red' } })).status).toBe(403);
    });
  });

  describe('as a non-member of a private project', () => {
    it('answers 404 Project Not Found', async () => {
      expect((await kiln.api('POST', labels(), { token: stranger.token, body: { name: 'nope', color: 'red' } })).body).toEqual({ message: '404 Project Not Found' });
    });
  });

  describe('anonymously', () => {
    it('answers 401: the labels API needs a signed-in caller', async () => {
      expect((await kiln.api('GET', labels())).status).toBe(401);
    });
  });
});

describe('GET /api/v4/projects/:id/labels', () => {
  it('lists the project\'s labels and those of every ancestor group, by title', async () => {
    await kiln.api('POST', `/groups/${subgroup.id}/labels`, { token: owner.token, body: { name: 'team-only', color: 'green' } });
    const { status, body, headers } = await kiln.api('GET', labels(), { token: guest.token });
    expect(status).toBe(200);
    expect(body.map((label: any) => label.name)).toEqual(['bug', 'docs', 'org-wide', 'short', 'team-only']);
    expect(headers['x-total']).toBe('5');
    expect(body.find((label: any) => label.name === 'org-wide')).toMatchObject({ is_project_label: false, priority: null });
  });

  it('leaves the groups\' labels out with include_ancestor_groups=false, and searches titles and descriptions', async () => {
    expect((await kiln.api('GET', `${labels()}?include_ancestor_groups=false`, { token: guest.token })).body.map((l: any) => l.name)).toEqual(['bug', 'docs', 'short']);
    expect((await kiln.api('GET', `${labels()}?search=broken`, { token: guest.token })).body.map((l: any) => l.name)).toEqual(['bug']);
    expect((await kiln.api('GET', `${labels()}?search=%25`, { token: guest.token })).body).toEqual([]);
  });

  it('counts open and closed issues with with_counts=true', async () => {
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'one', labels: 'bug' } });
    const closed = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'two', labels: 'bug' } });
    await kiln.api('PUT', `/projects/${project.id}/issues/${closed.body.iid}`, { token: owner.token, body: { state_event: 'close' } });
    const { body } = await kiln.api('GET', `${labels()}?with_counts=true`, { token: guest.token });
    expect(body.find((label: any) => label.name === 'bug')).toMatchObject({ open_issues_count: 1, closed_issues_count: 1, open_merge_requests_count: 0 });
    expect((await kiln.api('GET', labels(), { token: guest.token })).body[0].open_issues_count).toBeUndefined();
  });

  it('answers 404 Label Not Found for an unknown label', async () => {
    expect((await kiln.api('GET', `${labels()}/nothing`, { token: guest.token })).body).toEqual({ message: '404 Label Not Found' });
  });
});

describe('PUT /api/v4/projects/:id/labels/:name', () => {
  it('renames, recolours, describes and reprioritises a label, and reads it back', async () => {
    await kiln.api('POST', labels(), { token: reporter.token, body: { name: 'to-edit', color: 'red' } });
    const { status, body } = await kiln.api('PUT', `${labels()}/to-edit`, { token: reporter.token, body: { new_name: 'edited', color: 'navy', description: 'now', priority: 7, archived: true } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: 'edited', color: '#000080', description: 'now', priority: 7, archived: true });
    expect((await kiln.api('GET', `${labels()}/edited`, { token: reporter.token })).body).toEqual(body);
    const cleared = await kiln.api('PUT', `${labels()}/edited`, { token: reporter.token, body: { priority: null } });
    expect(cleared.body.priority).toBeNull();
  });

  it('takes the label in the body (PUT /projects/:id/labels with name), as python-gitlab saves it', async () => {
    const { status, body } = await kiln.api('PUT', labels(), { token: reporter.token, body: { name: 'edited', description: 'via body' } });
    expect(status).toBe(200);
    expect(body.description).toBe('via body');
    expect((await kiln.api('PUT', labels(), { token: reporter.token, body: { description: 'x' } })).body).toEqual({ error: 'label_id, name are missing, exactly one parameter must be provided' });
  });

  it('answers 400 without anything to change, and for a title already taken', async () => {
    expect((await kiln.api('PUT', `${labels()}/edited`, { token: reporter.token, body: {} })).body).toEqual({ error: 'new_name, color, description, priority, archived are missing, at least one parameter must be provided' });
    expect((await kiln.api('PUT', `${labels()}/edited`, { token: reporter.token, body: { new_name: 'bug' } })).body).toEqual({ message: { title: ['has already been taken'] } });
  });

  it('does not change a group\'s label through the project (404 Label Not Found)', async () => {
    expect((await kiln.api('PUT', `${labels()}/org-wide`, { token: owner.token, body: { color: 'red' } })).body).toEqual({ message: '404 Label Not Found' });
  });
});

describe('DELETE /api/v4/projects/:id/labels/:name', () => {
  it('deletes a label (204), which leaves the issues that carried it', async () => {
    await kiln.api('POST', labels(), { token: reporter.token, body: { name: 'doomed', color: 'red' } });
    const issue = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'tagged', labels: ['doomed', 'bug'] } });
    expect(issue.body.labels).toEqual(['bug', 'doomed']);
    const { status } = await kiln.api('DELETE', `${labels()}/doomed`, { token: reporter.token });
    expect(status).toBe(204);
    expect((await kiln.api('GET', `/projects/${project.id}/issues/${issue.body.iid}`, { token: owner.token })).body.labels).toEqual(['bug']);
    expect((await kiln.api('GET', `${labels()}/doomed`, { token: reporter.token })).status).toBe(404);
  });

  it('deletes by name in the body (the older form)', async () => {
    await kiln.api('POST', labels(), { token: reporter.token, body: { name: 'also-doomed', color: 'red' } });
    expect((await kiln.api('DELETE', `${labels()}?name=also-doomed`, { token: reporter.token })).status).toBe(204);
  });

  it('as a guest answers 403', async () => {
    expect((await kiln.api('DELETE', `${labels()}/bug`, { token: guest.token })).status).toBe(403);
  });
});

describe('/api/v4/groups/:id/labels', () => {
  it('creates, reads, lists, changes and deletes a group label with every documented parameter', async () => {
    const created = await kiln.api('POST', `/groups/${group.id}/labels`, { token: owner.token, body: { name: 'g-label', color: '#00ff00', description: 'group wide', archived: true } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number), name: 'g-label', color: '#00ff00', description: 'group wide', description_html: 'group wide',
      text_color: '#FFFFFF', remove_on_close: false, archived: true, subscribed: false,
    });
    expect((await kiln.api('GET', `/groups/${group.id}/labels/g-label`, { token: owner.token })).body).toEqual(created.body);
    const listed = await kiln.api('GET', `/groups/${group.id}/labels`, { token: owner.token });
    expect(listed.body.map((label: any) => label.name)).toEqual(['g-label', 'org-wide']);
    const changed = await kiln.api('PUT', `/groups/${group.id}/labels/g-label`, { token: owner.token, body: { new_name: 'g2', color: 'black', description: 'changed', archived: false } });
    expect(changed.body).toMatchObject({ name: 'g2', color: '#000000', description: 'changed', archived: false });
    const viaBody = await kiln.api('PUT', `/groups/${group.id}/labels`, { token: owner.token, body: { name: 'g2', description: 'by body' } });
    expect(viaBody.body.description).toBe('by body');
    expect((await kiln.api('DELETE', `/groups/${group.id}/labels/g2`, { token: owner.token })).status).toBe(204);
  });

  it('includes subgroups\' labels with include_descendant_groups, and their projects\' with only_group_labels=false', async () => {
    const names = async (query: string) => (await kiln.api('GET', `/groups/${group.id}/labels?${query}`, { token: owner.token })).body.map((label: any) => label.name);
    expect(await names('include_descendant_groups=true')).toEqual(['org-wide', 'team-only']);
    expect(await names('include_descendant_groups=true&only_group_labels=false')).toContain('bug');
  });

  it('as a non-member of a private group answers 404 Group Not Found', async () => {
    expect((await kiln.api('GET', `/groups/${group.id}/labels`, { token: stranger.token })).body).toEqual({ message: '404 Group Not Found' });
  });
});
