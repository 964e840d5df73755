// Award emoji on issues, merge requests and their comments (doc/api/emoji_reactions.md): the entity,
// GitLab's refusals, who may take an award back, and the votes the issue and merge request entities count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { branchWith, create, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let guest: TestUser;
let project: any;
let issue: any;
let mr: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('developer');
  guest = await kiln.createUser('guest');
  project = await kiln.createProject(owner, 'app');
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  issue = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Crash' });
  await seedRepository(kiln, owner, project.id);
  await branchWith(kiln, developer, project.id, 'fix', [create('fix.txt', 'fix\n')]);
  mr = await kiln.apiAs(developer, 'POST', `/projects/${project.id}/merge_requests`, { source_branch: 'fix', target_branch: 'main', title: 'Fix' });
}, 120_000);
afterAll(async () => {
  await kiln.close();
});

const issuePath = () => `/projects/${project.id}/issues/${issue.iid}/award_emoji`;
const mrPath = () => `/projects/${project.id}/merge_requests/${mr.iid}/award_emoji`;
const award = (user: TestUser, path: string, name: unknown) => kiln.api('POST', path, { token: user.token, body: { name } });

describe('POST /projects/:id/issues/:issue_iid/award_emoji', () => {
  it('as a guest: 201 with GitLab\'s entity; the issue counts the thumbs up in upvotes', async () => {
    const { status, body } = await award(guest, issuePath(), 'thumbsup');
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.any(Number), name: 'thumbsup', user: expect.objectContaining({ id: guest.id, username: 'guest' }),
      created_at: expect.any(String), updated_at: expect.any(String), awardable_id: issue.id, awardable_type: 'Issue', url: null,
    });
    await award(developer, issuePath(), 'thumbsdown');
    await award(developer, issuePath(), 'tada');
    const shown = await kiln.apiAs(owner, 'GET', `/projects/${project.id}/issues/${issue.iid}`);
    expect([shown.upvotes, shown.downvotes]).toEqual([1, 1]);
  });

  it('answers 404 with GitLab\'s messages for a name awarded already and a name that is no emoji; 400 without a name', async () => {
    expect(await award(guest, issuePath(), 'thumbsup')).toMatchObject({ status: 404, body: { message: '404 Award Emoji Name has already been taken Not Found' } });
    expect(await award(guest, issuePath(), 'not-an-emoji')).toMatchObject({ status: 404, body: { message: '404 Award Emoji Name is not a valid emoji name Not Found' } });
    expect((await kiln.api('POST', issuePath(), { token: guest.token, body: {} })).status).toBe(400);
  });

  it('answers 404 for an issue the caller cannot see, and 401 without a token', async () => {
    const stranger = await kiln.createUser('stranger');
    expect((await award(stranger, issuePath(), 'smile')).status).toBe(404);
    expect((await kiln.api('POST', issuePath(), { body: { name: 'smile' } })).status).toBe(401);
  });
});

describe('GET and DELETE /projects/:id/issues/:issue_iid/award_emoji/:award_id', () => {
  it('lists the awards in order; one award by id; another issue\'s award id is 404', async () => {
    const list = await kiln.apiAs(guest, 'GET', issuePath());
    expect(list.map((entry: any) => entry.name)).toEqual(['thumbsup', 'thumbsdown', 'tada']);
    expect((await kiln.apiAs(guest, 'GET', `${issuePath()}/${list[2].id}`)).name).toBe('tada');
    const other = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Other' });
    expect(await kiln.api('GET', `/projects/${project.id}/issues/${other.iid}/award_emoji/${list[2].id}`, { token: guest.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('only the user who awarded it takes it back (401 for anyone else but an administrator); 204', async () => {
    const [thumbsup] = await kiln.apiAs(guest, 'GET', issuePath());
    expect((await kiln.api('DELETE', `${issuePath()}/${thumbsup.id}`, { token: owner.token })).status).toBe(401);
    expect((await kiln.api('DELETE', `${issuePath()}/${thumbsup.id}`, { token: guest.token })).status).toBe(204);
    expect((await kiln.apiAs(guest, 'GET', issuePath())).map((entry: any) => entry.name)).toEqual(['thumbsdown', 'tada']);
    expect((await kiln.api('DELETE', `${issuePath()}/${thumbsup.id}`, { token: guest.token })).status).toBe(404);
    const tada = (await kiln.apiAs(guest, 'GET', issuePath()))[1];
    expect((await kiln.api('DELETE', `${issuePath()}/${tada.id}`, { token: kiln.root.token })).status).toBe(204);
  });
});

describe('award emoji on merge requests and comments', () => {
  it('a merge request: awarded by a developer, counted in upvotes and downvotes; a Guest cannot read it (404)', async () => {
    expect((await award(developer, mrPath(), 'thumbsup')).body).toMatchObject({ awardable_id: mr.id, awardable_type: 'MergeRequest' });
    expect((await award(owner, mrPath(), 'thumbsup')).status).toBe(201);
    expect((await award(owner, mrPath(), '+1')).status).toBe(201);
    const shown = await kiln.apiAs(owner, 'GET', `/projects/${project.id}/merge_requests/${mr.iid}`);
    expect([shown.upvotes, shown.downvotes]).toEqual([2, 0]);
    const listed = await kiln.apiAs(owner, 'GET', `/projects/${project.id}/merge_requests`);
    expect(listed.find((entry: any) => entry.iid === mr.iid).upvotes).toBe(2);
    expect((await award(guest, mrPath(), 'eyes')).status).toBe(404);
  });

  it('a comment on a merge request and on an issue: awarded as a Note; a system note takes none', async () => {
    const note = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/merge_requests/${mr.iid}/notes`, { body: 'Nice' });
    const onNote = await award(developer, `/projects/${project.id}/merge_requests/${mr.iid}/notes/${note.id}/award_emoji`, 'rocket');
    expect(onNote).toMatchObject({ status: 201, body: { name: 'rocket', awardable_id: note.id, awardable_type: 'Note' } });
    expect((await kiln.apiAs(owner, 'GET', `/projects/${project.id}/merge_requests/${mr.iid}/notes/${note.id}/award_emoji`)).map((entry: any) => entry.name)).toEqual(['rocket']);
    const issueNote = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'Same here' });
    expect((await award(guest, `/projects/${project.id}/issues/${issue.iid}/notes/${issueNote.id}/award_emoji`, 'heart')).status).toBe(201);
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/issues/${issue.iid}`, { state_event: 'close' });
    const notes = await kiln.apiAs(owner, 'GET', `/projects/${project.id}/issues/${issue.iid}/notes`);
    const system = notes.find((entry: any) => entry.system);
    expect(await award(guest, `/projects/${project.id}/issues/${issue.iid}/notes/${system.id}/award_emoji`, 'heart')).toMatchObject({ status: 404, body: { message: '404 Award Emoji Awardable cannot be awarded emoji Not Found' } });
    expect((await kiln.api('GET', `/projects/${project.id}/issues/${issue.iid}/notes/999999/award_emoji`, { token: guest.token })).status).toBe(404);
  });
});

describe('GET /projects/:id/issues and /merge_requests?my_reaction_emoji=', () => {
  it('filters by the caller\'s own awards: a name, Any, None, and not[my_reaction_emoji]', async () => {
    const issues = async (query: string) => (await kiln.apiAs(developer, 'GET', `/projects/${project.id}/issues?state=all&${query}`)).map((entry: any) => entry.title).sort();
    expect(await issues('my_reaction_emoji=thumbsdown')).toEqual(['Crash']);
    expect(await issues('my_reaction_emoji=Any')).toEqual(['Crash']);
    expect(await issues('my_reaction_emoji=None')).toEqual(['Other']);
    expect(await issues('my_reaction_emoji=heart')).toEqual([]);
    const mrs = async (user: TestUser, query: string) => (await kiln.apiAs(user, 'GET', `/projects/${project.id}/merge_requests?${query}`)).map((entry: any) => entry.iid);
    expect(await mrs(developer, 'my_reaction_emoji=thumbsup')).toEqual([mr.iid]);
    expect(await mrs(owner, 'my_reaction_emoji=%2B1')).toEqual([mr.iid]);
    expect(await mrs(developer, 'my_reaction_emoji=None')).toEqual([]);
    expect(await mrs(developer, 'not[my_reaction_emoji]=thumbsup')).toEqual([]);
    expect(await mrs(developer, 'not[my_reaction_emoji]=tada')).toEqual([mr.iid]);
  });
});

describe('DELETE /projects/:id/merge_requests/:merge_request_iid', () => {
  it('takes the merge request\'s awards and its comments\' awards with it', async () => {
    expect((await kiln.api('DELETE', `/projects/${project.id}/merge_requests/${mr.iid}`, { token: owner.token })).status).toBe(204);
    const left = await kiln.deps.db.selectFrom('award_emoji').select('awardable_type').where('awardable_type', 'in', ['MergeRequest', 'Note']).execute();
    expect(left.map((row) => row.awardable_type)).toEqual(['Note']); // the issue comment's heart
  });
});
