// Issue boards (doc/api/boards.md, group_boards.md): GitLab's paths, entities, status codes and
// errors; readers of the issues read boards, Reporters manage boards and their label lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let group: any;
let project: any;
let other: any;
const labels: Record<string, any> = {};

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'org', { visibility: 'private' });
  project = await kiln.createProject(owner, 'app', { namespace_id: group.id, visibility: 'private' });
  other = await kiln.createProject(owner, 'other', { visibility: 'private' });
  await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  for (const name of ['Doing', 'Review', 'Ready']) labels[name] = (await kiln.api('POST', `/projects/${project.id}/labels`, { token: owner.token, body: { name, color: '#FF0000' } })).body;
  labels.foreign = (await kiln.api('POST', `/projects/${other.id}/labels`, { token: owner.token, body: { name: 'foreign', color: '#00FF00' } })).body;
  labels.group = (await kiln.api('POST', `/groups/${group.id}/labels`, { token: owner.token, body: { name: 'Org-wide', color: '#0000FF' } })).body;
});
afterAll(() => kiln.close());

const boards = () => `/projects/${project.id}/boards`;

async function newBoard(name: string) {
  const { status, body } = await kiln.api('POST', boards(), { token: reporter.token, body: { name } });
  expect(status).toBe(201);
  return body;
}

describe('POST /api/v4/projects/:id/boards', () => {
  it('as a reporter creates a named board with no lists, in GitLab’s entity (201)', async () => {
    const body = await newBoard('Planning');
    expect(body).toMatchObject({ id: expect.any(Number), name: 'Planning', hide_backlog_list: false, hide_closed_list: false, lists: [], group: null, milestone: null, assignee: null, labels: [], weight: null });
    expect(body.project).toMatchObject({ id: project.id, path_with_namespace: 'org/app', web_url: expect.stringMatching(/\/org\/app$/) });
  });

  it('refuses a blank name with the model’s 400 and a missing one with Grape’s', async () => {
    expect(await kiln.api('POST', boards(), { token: reporter.token, body: { name: ' ' } })).toMatchObject({ status: 400, body: { message: { name: ["can't be blank"] } } });
    expect(await kiln.api('POST', boards(), { token: reporter.token, body: {} })).toMatchObject({ status: 400, body: { error: 'name is missing' } });
  });

  it('is refused to a guest (403), hidden from a stranger (404) and closed to anonymous callers (401)', async () => {
    expect((await kiln.api('POST', boards(), { token: guest.token, body: { name: 'x' } })).status).toBe(403);
    expect(await kiln.api('POST', boards(), { token: stranger.token, body: { name: 'x' } })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await kiln.api('GET', boards())).status).toBe(401);
  });
});

describe('GET /api/v4/projects/:id/boards and /boards/:board_id', () => {
  it('as a guest lists the boards with their lists and reads one', async () => {
    const made = await newBoard('Readable');
    await kiln.api('POST', `${boards()}/${made.id}/lists`, { token: reporter.token, body: { label_id: labels.Doing.id } });
    const { status, body, headers } = await kiln.api('GET', boards(), { token: guest.token });
    expect(status).toBe(200);
    expect(headers['x-total']).toBeDefined();
    const listed = body.find((item: any) => item.id === made.id);
    expect(listed.lists).toEqual([{ id: expect.any(Number), label: expect.objectContaining({ id: labels.Doing.id, name: 'Doing', color: '#FF0000', description: null }), position: 0, max_issue_count: 0, max_issue_weight: 0, limit_metric: null }]);
    expect((await kiln.api('GET', `${boards()}/${made.id}`, { token: guest.token })).body).toEqual(listed);
  });

  it('answers 404 Not found for a board of another project', async () => {
    const foreign = (await kiln.api('POST', `/projects/${other.id}/boards`, { token: owner.token, body: { name: 'theirs' } })).body;
    expect(await kiln.api('GET', `${boards()}/${foreign.id}`, { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await kiln.api('DELETE', `${boards()}/${foreign.id}`, { token: owner.token })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${other.id}/boards/${foreign.id}`, { token: owner.token })).status).toBe(200);
  });
});

describe('PUT and DELETE /api/v4/projects/:id/boards/:board_id', () => {
  it('renames a board and hides its Open and Closed lists, then deletes it (204)', async () => {
    const made = await newBoard('Before');
    const { status, body } = await kiln.api('PUT', `${boards()}/${made.id}`, { token: reporter.token, body: { name: 'After', hide_backlog_list: true, hide_closed_list: 'true' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: 'After', hide_backlog_list: true, hide_closed_list: true });
    expect((await kiln.api('PUT', `${boards()}/${made.id}`, { token: guest.token, body: { name: 'no' } })).status).toBe(403);
    expect((await kiln.api('DELETE', `${boards()}/${made.id}`, { token: reporter.token })).status).toBe(204);
    expect((await kiln.api('GET', `${boards()}/${made.id}`, { token: reporter.token })).status).toBe(404);
  });
});

describe('/api/v4/projects/:id/boards/:board_id/lists', () => {
  it('adds label lists at the end, refuses a label twice or one the project does not see', async () => {
    const made = await newBoard('Lists');
    const lists = `${boards()}/${made.id}/lists`;
    const first = await kiln.api('POST', lists, { token: reporter.token, body: { label_id: labels.Doing.id } });
    expect(first).toMatchObject({ status: 201, body: { position: 0, label: { name: 'Doing' } } });
    const second = await kiln.api('POST', lists, { token: reporter.token, body: { label_id: labels.group.id } });
    expect(second).toMatchObject({ status: 201, body: { position: 1, label: { name: 'Org-wide' } } });
    expect(await kiln.api('POST', lists, { token: reporter.token, body: { label_id: labels.Doing.id } })).toMatchObject({ status: 400, body: { message: { error: 'Label has already been taken' } } });
    expect(await kiln.api('POST', lists, { token: reporter.token, body: { label_id: labels.foreign.id } })).toMatchObject({ status: 400, body: { message: { error: 'Label not found!' } } });
    expect(await kiln.api('POST', lists, { token: reporter.token, body: {} })).toMatchObject({ status: 400, body: { error: 'label_id is missing' } });
    expect((await kiln.api('POST', lists, { token: guest.token, body: { label_id: labels.Review.id } })).status).toBe(403);
    const read = await kiln.api('GET', `${lists}/${first.body.id}`, { token: guest.token });
    expect(read.body).toEqual(first.body);
    expect((await kiln.api('GET', lists, { token: guest.token })).body.map((list: any) => list.label.name)).toEqual(['Doing', 'Org-wide']);
  });

  it('moves a list to a position, shifting the others, and refuses positions outside the board', async () => {
    const made = await newBoard('Moves');
    const lists = `${boards()}/${made.id}/lists`;
    const ids: number[] = [];
    for (const name of ['Doing', 'Review', 'Ready']) ids.push((await kiln.api('POST', lists, { token: reporter.token, body: { label_id: labels[name].id } })).body.id);
    const moved = await kiln.api('PUT', `${lists}/${ids[2]}`, { token: reporter.token, body: { position: 0 } });
    expect(moved).toMatchObject({ status: 200, body: { id: ids[2], position: 0, label: { name: 'Ready' } } });
    expect((await kiln.api('GET', lists, { token: reporter.token })).body.map((list: any) => [list.label.name, list.position])).toEqual([['Ready', 0], ['Doing', 1], ['Review', 2]]);
    for (const position of [3, -1, 0]) {
      expect(await kiln.api('PUT', `${lists}/${ids[2]}`, { token: reporter.token, body: { position } })).toMatchObject({ status: 400, body: { message: { error: 'List could not be moved!' } } });
    }
    expect((await kiln.api('PUT', `${lists}/${ids[2]}`, { token: reporter.token, body: {} })).body).toEqual({ error: 'position is missing' });
  });

  it('removes a list (204), moving the later ones up; deleting a label removes its lists', async () => {
    const made = await newBoard('Removals');
    const lists = `${boards()}/${made.id}/lists`;
    const ids: number[] = [];
    const doomed = (await kiln.api('POST', `/projects/${project.id}/labels`, { token: owner.token, body: { name: 'Doomed', color: '#123456' } })).body;
    for (const label of [labels.Doing, labels.Review, doomed]) ids.push((await kiln.api('POST', lists, { token: reporter.token, body: { label_id: label.id } })).body.id);
    expect((await kiln.api('DELETE', `${lists}/${ids[0]}`, { token: guest.token })).status).toBe(403);
    expect((await kiln.api('DELETE', `${lists}/${ids[0]}`, { token: reporter.token })).status).toBe(204);
    expect((await kiln.api('GET', `${lists}/${ids[0]}`, { token: reporter.token })).status).toBe(404);
    expect((await kiln.api('GET', lists, { token: reporter.token })).body.map((list: any) => [list.label.name, list.position])).toEqual([['Review', 0], ['Doomed', 1]]);
    expect((await kiln.api('DELETE', `/projects/${project.id}/labels/${doomed.id}`, { token: owner.token })).status).toBe(204);
    expect((await kiln.api('GET', lists, { token: reporter.token })).body.map((list: any) => list.label.name)).toEqual(['Review']);
  });
});

describe('/api/v4/groups/:id/boards', () => {
  it('as the group owner creates a group board with a group label list; project members read its boards', async () => {
    const made = await kiln.api('POST', `/groups/${group.id}/boards`, { token: owner.token, body: { name: 'Org board' } });
    expect(made).toMatchObject({ status: 201, body: { name: 'Org board', project: null, group: { id: group.id, name: 'org' } } });
    const list = await kiln.api('POST', `/groups/${group.id}/boards/${made.body.id}/lists`, { token: owner.token, body: { label_id: labels.group.id } });
    expect(list).toMatchObject({ status: 201, body: { position: 0, label: { name: 'Org-wide' } } });
    expect((await kiln.api('POST', `/groups/${group.id}/boards/${made.body.id}/lists`, { token: owner.token, body: { label_id: labels.Doing.id } })).body).toEqual({ message: { error: 'Label not found!' } });
    expect((await kiln.api('GET', `/groups/${group.id}/boards`, { token: owner.token })).body.map((board: any) => board.name)).toEqual(['Org board']);
    // A member of one of its projects reads the private group (GitLab's has_projects), and its boards.
    expect((await kiln.api('GET', `/groups/${group.id}/boards`, { token: reporter.token })).body.map((board: any) => board.name)).toEqual(['Org board']);
    // A project's board is not the group's.
    const projectBoard = await newBoard('Project only');
    expect((await kiln.api('GET', `/groups/${group.id}/boards/${projectBoard.id}`, { token: owner.token })).status).toBe(404);
  });
});
