// Links between issues (doc/api/issue_links.md): listed from either issue with its link, made with
// GitLab's checks (404 for an issue the caller cannot read, 403 without the Guest role in both
// projects, 409 for an existing link either way, 422 for a link to itself), read and removed through
// either issue, each change noted on both issues as GitLab words it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;
let other: any;
let hidden: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'tracker', { visibility: 'public' });
  other = await kiln.createProject(owner, 'other', { visibility: 'public' });
  hidden = await kiln.createProject(owner, 'hidden', { visibility: 'private' });
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
});
afterAll(() => kiln.close());

const issue = async (target: any, title: string) => (await kiln.api('POST', `/projects/${target.id}/issues`, { token: owner.token, body: { title } })).body;
const links = (target: any, iid: number) => `/projects/${target.id}/issues/${iid}/links`;
const notes = async (target: any, iid: number) => (await kiln.api('GET', `/projects/${target.id}/issues/${iid}/notes?sort=asc`, { token: owner.token })).body.filter((note: any) => note.system).map((note: any) => note.body);

describe('POST /api/v4/projects/:id/issues/:issue_iid/links', () => {
  it('as a guest, links two issues (201: source_issue, target_issue, link_type) and notes it on both', async () => {
    const a = await issue(project, 'A');
    const b = await issue(other, 'B');
    await kiln.addMember(owner, 'projects', other.id, guest, ACCESS.guest);
    const { status, body } = await kiln.api('POST', links(project, a.iid), { token: guest.token, body: { target_project_id: String(other.id), target_issue_iid: String(b.iid) } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ source_issue: { id: a.id, iid: a.iid, title: 'A' }, target_issue: { id: b.id, title: 'B' }, link_type: 'relates_to' });
    expect(await notes(project, a.iid)).toEqual([`marked this issue as related to owner/other#${b.iid}`]);
    expect(await notes(other, b.iid)).toEqual([`marked this issue as related to owner/tracker#${a.iid}`]);
  });

  it('keeps "is_blocked_by" as the reverse "blocks", listed from each side as GitLab does', async () => {
    const a = await issue(project, 'Blocked');
    const b = await issue(project, 'Blocker');
    const { status, body } = await kiln.api('POST', links(project, a.iid), { token: owner.token, body: { target_project_id: project.path_with_namespace, target_issue_iid: b.iid, link_type: 'is_blocked_by' } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ source_issue: { id: b.id }, target_issue: { id: a.id }, link_type: 'blocks' });
    const fromA = (await kiln.api('GET', links(project, a.iid), { token: owner.token })).body;
    const fromB = (await kiln.api('GET', links(project, b.iid), { token: owner.token })).body;
    expect(fromA.map((linked: any) => [linked.id, linked.link_type])).toEqual([[b.id, 'is_blocked_by']]);
    expect(fromB.map((linked: any) => [linked.id, linked.link_type])).toEqual([[a.id, 'blocks']]);
    expect(fromA[0]).toMatchObject({ issue_link_id: fromB[0].issue_link_id, link_created_at: '2026-11-22T08:00:00.000Z', link_updated_at: '2026-11-22T08:00:00.000Z', title: 'Blocker' });
    expect(await notes(project, a.iid)).toEqual([`marked this issue as blocked by #${b.iid}`]);
    expect(await notes(project, b.iid)).toEqual([`marked this issue as blocking #${a.iid}`]);
  });

  it('answers 409 "Issue(s) already assigned" for a link that exists either way', async () => {
    const a = await issue(project, 'One');
    const b = await issue(project, 'Two');
    expect((await kiln.api('POST', links(project, a.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: b.iid, link_type: 'blocks' } })).status).toBe(201);
    for (const [from, to] of [[a, b], [b, a]]) {
      const again = await kiln.api('POST', links(project, from.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: to.iid } });
      expect(again).toMatchObject({ status: 409, body: { message: 'Issue(s) already assigned' } });
    }
  });

  it('answers 422 for a link to itself', async () => {
    const a = await issue(project, 'Self');
    const { status, body } = await kiln.api('POST', links(project, a.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: a.iid } });
    expect(status).toBe(422);
    expect(body).toEqual({ message: `#${a.iid} cannot be added: cannot be related to itself` });
  });

  it('as a non-member of a public project, answers 403 with GitLab\'s message', async () => {
    const a = await issue(project, 'Public A');
    const b = await issue(project, 'Public B');
    const { status, body } = await kiln.api('POST', links(project, a.iid), { token: stranger.token, body: { target_project_id: project.id, target_issue_iid: b.iid } });
    expect(status).toBe(403);
    expect(body).toEqual({ message: "Couldn't link issues. You must have at least the Guest role in both projects." });
  });

  it('answers 404 for a target the caller cannot read, and for a missing one', async () => {
    const a = await issue(project, 'Reaching');
    const secret = await issue(hidden, 'Secret');
    const unreadable = await kiln.api('POST', links(project, a.iid), { token: guest.token, body: { target_project_id: hidden.id, target_issue_iid: secret.iid } });
    expect(unreadable).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const missing = await kiln.api('POST', links(project, a.iid), { token: guest.token, body: { target_project_id: project.id, target_issue_iid: 9999 } });
    expect(missing.status).toBe(404);
  });

  it('answers 400 naming a missing or wrong parameter', async () => {
    const a = await issue(project, 'Bad input');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ target_issue_iid: 1 }, 'target_project_id'],
      [{ target_project_id: project.id }, 'target_issue_iid'],
      [{ target_project_id: project.id, target_issue_iid: 'abc' }, 'target_issue_iid'],
      [{ target_project_id: project.id, target_issue_iid: 1, link_type: 'duplicates' }, 'link_type'],
      [{ target_project_id: project.id, target_issue_iid: { nested: 1 } }, 'target_issue_iid'],
    ];
    for (const [body, parameter] of cases) {
      const answer = await kiln.api('POST', links(project, a.iid), { token: owner.token, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(answer.body)).toContain(parameter);
    }
  });
});

describe('GET and DELETE /api/v4/projects/:id/issues/:issue_iid/links/:issue_link_id', () => {
  it('reads and removes a link through either issue, noting the removal on both', async () => {
    const a = await issue(project, 'Left');
    const b = await issue(project, 'Right');
    await kiln.api('POST', links(project, a.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: b.iid } });
    const [linked] = (await kiln.api('GET', links(project, a.iid), { token: owner.token })).body;
    const one = await kiln.api('GET', `${links(project, b.iid)}/${linked.issue_link_id}`, { token: guest.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ source_issue: { id: a.id }, target_issue: { id: b.id }, link_type: 'relates_to' });
    const unrelated = await issue(project, 'Unrelated');
    expect((await kiln.api('GET', `${links(project, unrelated.iid)}/${linked.issue_link_id}`, { token: owner.token })).status).toBe(404);
    const removed = await kiln.api('DELETE', `${links(project, b.iid)}/${linked.issue_link_id}`, { token: guest.token });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ source_issue: { id: a.id }, target_issue: { id: b.id }, link_type: 'relates_to' });
    expect((await kiln.api('GET', links(project, a.iid), { token: owner.token })).body).toEqual([]);
    expect(await notes(project, a.iid)).toEqual([`marked this issue as related to #${b.iid}`, `removed the relation with #${b.iid}`]);
    expect(await notes(project, b.iid)).toEqual([`marked this issue as related to #${a.iid}`, `removed the relation with #${a.iid}`]);
    expect((await kiln.api('DELETE', `${links(project, b.iid)}/${linked.issue_link_id}`, { token: owner.token })).status).toBe(404);
  });

  it('hides a link to an issue the caller cannot read: not listed, 404 when named', async () => {
    const a = await issue(project, 'Visible');
    const secret = await issue(hidden, 'Private end');
    await kiln.api('POST', links(project, a.iid), { token: owner.token, body: { target_project_id: hidden.id, target_issue_iid: secret.iid } });
    const [linked] = (await kiln.api('GET', links(project, a.iid), { token: owner.token })).body;
    expect(linked.title).toBe('Private end');
    expect((await kiln.api('GET', links(project, a.iid), { token: guest.token })).body).toEqual([]);
    expect((await kiln.api('GET', `${links(project, a.iid)}/${linked.issue_link_id}`, { token: guest.token })).status).toBe(404);
    expect((await kiln.api('DELETE', `${links(project, a.iid)}/${linked.issue_link_id}`, { token: guest.token })).status).toBe(404);
    expect((await kiln.api('GET', links(project, a.iid))).status).toBe(401);
  });
});

describe('GET /:project/-/issues/:iid (Linked items)', () => {
  it('lists the linked issues the viewer may read, grouped by link type, and nothing when there are none', async () => {
    const a = await issue(project, 'Page source');
    const blocker = await issue(project, 'Page <b>blocker</b>');
    const secret = await issue(hidden, 'Page secret');
    await kiln.api('POST', links(project, a.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: blocker.iid, link_type: 'is_blocked_by' } });
    await kiln.api('POST', links(project, a.iid), { token: owner.token, body: { target_project_id: hidden.id, target_issue_iid: secret.iid } });
    const web = new WebSession(kiln);
    await web.signIn(guest.username, guest.password);
    const shown = await web.get(`/owner/tracker/-/issues/${a.iid}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Linked items <span class="badge">1</span>');
    expect(shown.body).toContain('<h3>Is blocked by</h3>');
    expect(shown.body).toContain('Page &lt;b&gt;blocker&lt;/b&gt;');
    expect(shown.body).not.toContain('Page secret');
    const lone = await issue(project, 'Page lone');
    expect((await web.get(`/owner/tracker/-/issues/${lone.iid}`)).body).not.toContain('Linked items');
  });
});
