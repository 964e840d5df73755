// Label subscriptions (GitLab's lib/api/subscriptions.rb for labels): subscribing and unsubscribing by
// id or title on a project's and a group's labels, 304 when nothing changes, 404 for an unknown label
// or an unreadable project, and `subscribed` in every label answer as the caller's own state: the
// whole label's subscription (made on the group) shows everywhere, a project's only in that project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { countStatements } from '../helpers/statement-counter.js';

let kiln: TestKiln;
let owner: TestUser;
let guest: TestUser;
let stranger: TestUser;
let group: any;
let project: any;
let other: any;
let bug: any;
let shared: any;

const projectLabels = () => `/projects/${project.id}/labels`;
const groupLabels = () => `/groups/${group.id}/labels`;

async function subscribedIn(user: TestUser, path: string, name: string): Promise<boolean> {
  const list = await kiln.api('GET', path, { token: user.token });
  expect(list.status).toBe(200);
  const fromList = list.body.find((label: any) => label.name === name)?.subscribed;
  const one = await kiln.api('GET', `${path}/${encodeURIComponent(name)}`, { token: user.token });
  expect(one.body.subscribed).toBe(fromList);
  return one.body.subscribed;
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'org', { visibility: 'private' });
  project = await kiln.createProject(owner, 'app', { namespace_id: group.id });
  other = await kiln.createProject(owner, 'other', { namespace_id: group.id });
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
  bug = (await kiln.api('POST', projectLabels(), { token: owner.token, body: { name: 'bug', color: '#FF0000' } })).body;
  shared = (await kiln.api('POST', groupLabels(), { token: owner.token, body: { name: 'scope/shared', color: '#00FF00' } })).body;
});
afterAll(() => kiln.close());

describe('POST /api/v4/projects/:id/labels/:label_id/subscribe and /unsubscribe', () => {
  it('subscribes a guest by title (python-gitlab sends the name), answering the label with subscribed: true (201); again 304', async () => {
    expect(await subscribedIn(guest, projectLabels(), 'bug')).toBe(false);
    const { status, body } = await kiln.api('POST', `${projectLabels()}/bug/subscribe`, { token: guest.token });
    expect(status).toBe(201);
    expect(body).toMatchObject({ id: bug.id, name: 'bug', subscribed: true, is_project_label: true });
    expect(await subscribedIn(guest, projectLabels(), 'bug')).toBe(true);
    // Nobody else's state changes.
    expect(await subscribedIn(owner, projectLabels(), 'bug')).toBe(false);
    expect((await kiln.api('POST', `${projectLabels()}/bug/subscribe`, { token: guest.token })).status).toBe(304);
  });

  it('unsubscribes by id (201, subscribed: false); again 304', async () => {
    const { status, body } = await kiln.api('POST', `${projectLabels()}/${bug.id}/unsubscribe`, { token: guest.token });
    expect(status).toBe(201);
    expect(body).toMatchObject({ id: bug.id, subscribed: false });
    expect(await subscribedIn(guest, projectLabels(), 'bug')).toBe(false);
    expect((await kiln.api('POST', `${projectLabels()}/${bug.id}/unsubscribe`, { token: guest.token })).status).toBe(304);
  });

  it('subscribes to an inherited group label in this project only', async () => {
    const { status, body } = await kiln.api('POST', `${projectLabels()}/${encodeURIComponent('scope/shared')}/subscribe`, { token: owner.token });
    expect(status).toBe(201);
    expect(body).toMatchObject({ id: shared.id, subscribed: true, is_project_label: false });
    expect(await subscribedIn(owner, projectLabels(), 'scope/shared')).toBe(true);
    expect(await subscribedIn(owner, `/projects/${other.id}/labels`, 'scope/shared')).toBe(false);
    expect(await subscribedIn(owner, groupLabels(), 'scope/shared')).toBe(false);
    expect((await kiln.api('POST', `${projectLabels()}/${shared.id}/unsubscribe`, { token: owner.token })).status).toBe(201);
  });

  it('answers 404 Label Not Found for an unknown label, 404 for a project the caller cannot read, 401 anonymously', async () => {
    const unknown = await kiln.api('POST', `${projectLabels()}/nope/subscribe`, { token: guest.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Label Not Found' });
    const hidden = await kiln.api('POST', `${projectLabels()}/bug/subscribe`, { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    expect((await kiln.api('POST', `${projectLabels()}/bug/subscribe`, {})).status).toBe(401);
  });
});

describe('POST /api/v4/groups/:id/labels/:label_id/subscribe and /unsubscribe', () => {
  it('subscribes to the whole label: subscribed in the group and in every project under it', async () => {
    const { status, body } = await kiln.api('POST', `${groupLabels()}/${shared.id}/subscribe`, { token: owner.token });
    expect(status).toBe(201);
    expect(body).toMatchObject({ id: shared.id, name: 'scope/shared', subscribed: true });
    expect(body).not.toHaveProperty('is_project_label');
    expect(await subscribedIn(owner, groupLabels(), 'scope/shared')).toBe(true);
    expect(await subscribedIn(owner, projectLabels(), 'scope/shared')).toBe(true);
    expect(await subscribedIn(owner, `/projects/${other.id}/labels`, 'scope/shared')).toBe(true);
    // Already subscribed where the project stands: 304 there too.
    expect((await kiln.api('POST', `${projectLabels()}/${shared.id}/subscribe`, { token: owner.token })).status).toBe(304);
    expect((await kiln.api('POST', `${groupLabels()}/${encodeURIComponent('scope/shared')}/subscribe`, { token: owner.token })).status).toBe(304);
  });

  it('unsubscribing in a project ends the whole label\'s subscription (GitLab keeps one level)', async () => {
    expect((await kiln.api('POST', `${projectLabels()}/${shared.id}/unsubscribe`, { token: owner.token })).status).toBe(201);
    expect(await subscribedIn(owner, `/projects/${other.id}/labels`, 'scope/shared')).toBe(false);
    expect(await subscribedIn(owner, groupLabels(), 'scope/shared')).toBe(false);
    expect((await kiln.api('POST', `${groupLabels()}/${shared.id}/unsubscribe`, { token: owner.token })).status).toBe(304);
  });

  it('subscribing on the group replaces the project subscriptions, and unsubscribing there ends them all', async () => {
    await kiln.api('POST', `${projectLabels()}/${shared.id}/subscribe`, { token: owner.token });
    expect((await kiln.api('POST', `${groupLabels()}/${shared.id}/subscribe`, { token: owner.token })).status).toBe(201);
    const rows = await kiln.deps.db.selectFrom('label_subscriptions').select('project_id').where('user_id', '=', owner.id).where('label_id', '=', shared.id).execute();
    expect(rows).toEqual([{ project_id: null }]);
    expect((await kiln.api('POST', `${groupLabels()}/${shared.id}/unsubscribe`, { token: owner.token })).status).toBe(201);
    expect(await subscribedIn(owner, projectLabels(), 'scope/shared')).toBe(false);
  });

  it('answers 404 for an unknown label and for a group the caller cannot read', async () => {
    expect((await kiln.api('POST', `${groupLabels()}/nope/subscribe`, { token: owner.token })).body).toEqual({ message: '404 Label Not Found' });
    expect((await kiln.api('POST', `${groupLabels()}/${shared.id}/subscribe`, { token: stranger.token })).status).toBe(404);
  });

  it('keeps one row per user, label and scope when two subscribe requests race', async () => {
    const results = await Promise.all([1, 2, 3].map(() => kiln.api('POST', `${groupLabels()}/${shared.id}/subscribe`, { token: owner.token })));
    expect(results.map((result) => result.status).sort()).toEqual([201, 304, 304]);
    const rows = await kiln.deps.db.selectFrom('label_subscriptions').select('id').where('user_id', '=', owner.id).where('label_id', '=', shared.id).execute();
    expect(rows).toHaveLength(1);
    await kiln.api('POST', `${groupLabels()}/${shared.id}/unsubscribe`, { token: owner.token });
  });
});

describe('promoting a subscribed project label', () => {
  it('moves the subscription to the group label, still holding in that project only', async () => {
    await kiln.api('POST', projectLabels(), { token: owner.token, body: { name: 'promo', color: '#654321' } });
    expect((await kiln.api('POST', `${projectLabels()}/promo/subscribe`, { token: owner.token })).status).toBe(201);
    const promoted = await kiln.api('PUT', `${projectLabels()}/promo/promote`, { token: owner.token });
    expect(promoted.status).toBe(200);
    expect(promoted.body.subscribed).toBe(false);
    expect(await subscribedIn(owner, projectLabels(), 'promo')).toBe(true);
    expect(await subscribedIn(owner, `/projects/${other.id}/labels`, 'promo')).toBe(false);
  });

  it('keeps one subscription when the group label of that title was already subscribed in the project', async () => {
    const own = await kiln.api('POST', projectLabels(), { token: owner.token, body: { name: 'twin', color: '#222222' } });
    const made = await kiln.api('POST', groupLabels(), { token: owner.token, body: { name: 'twin', color: '#111111' } });
    expect([own.status, made.status]).toEqual([201, 201]);
    const twin = made.body;
    for (const id of [twin.id, own.body.id]) expect((await kiln.api('POST', `${projectLabels()}/${id}/subscribe`, { token: owner.token })).status).toBe(201);
    expect((await kiln.api('PUT', `${projectLabels()}/${own.body.id}/promote`, { token: owner.token })).status).toBe(200);
    const rows = await kiln.deps.db.selectFrom('label_subscriptions').select(['label_id', 'project_id']).where('user_id', '=', owner.id).where('label_id', 'in', [twin.id, own.body.id]).execute();
    expect(rows.map((row) => [Number(row.label_id), Number(row.project_id)])).toEqual([[twin.id, project.id]]);
  });
});

describe('subscribed in label lists', () => {
  it('reads the caller\'s subscriptions in one statement for a whole page', async () => {
    for (let i = 0; i < 5; i++) await kiln.api('POST', projectLabels(), { token: owner.token, body: { name: `many-${i}`, color: '#123456' } });
    await kiln.api('POST', `${projectLabels()}/many-2/subscribe`, { token: owner.token });
    const counter = countStatements();
    counter.log = [];
    let list: any;
    try {
      list = await kiln.api('GET', projectLabels(), { token: owner.token });
    } finally {
      counter.restore();
    }
    expect(counter.log.filter((text) => /label_subscriptions/.test(text))).toHaveLength(1);
    const subscribed = list.body.filter((label: any) => label.subscribed && label.name.startsWith('many-')).map((label: any) => label.name);
    expect(subscribed).toEqual(['many-2']);
  });
});
