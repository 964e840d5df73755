// A project's or group's access-token bot users go with it, as GitLab's project and group deletions
// delete them: their tokens stop working with the deletion and the users are deleted by the user
// deletion job (a group's deletion takes the bots of its projects and subgroups too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

async function tokenOf(kind: 'projects' | 'groups', id: number, name: string): Promise<{ token: string; user_id: number }> {
  const body: Record<string, unknown> = { name, scopes: ['api'] };
  if (kind === 'groups') body.access_level = 40;
  return kiln.apiAs(alice, 'POST', `/${kind}/${id}/access_tokens`, body);
}

async function expectGone(bot: { token: string; user_id: number }): Promise<void> {
  expect((await kiln.api('GET', '/user', { token: bot.token })).status).toBe(401);
  expect((await kiln.api('GET', `/users/${bot.user_id}`, { token: kiln.root.token })).status).toBe(404);
  const tokens = await kiln.deps.db.selectFrom('personal_access_tokens').select('id').where('user_id', '=', bot.user_id).execute();
  expect(tokens).toEqual([]);
  const members = await kiln.deps.db.selectFrom('members').select('id').where('user_id', '=', bot.user_id).execute();
  expect(members).toEqual([]);
}

describe('deleting a project', () => {
  it("deletes its bot users: the token stops at once, the user goes with the job, alice's other bots stay", async () => {
    const project = await kiln.createProject(alice, 'doomed');
    const other = await kiln.createProject(alice, 'kept');
    const bot = await tokenOf('projects', project.id, 'ci');
    const keptBot = await tokenOf('projects', other.id, 'ci');
    expect((await kiln.api('GET', '/user', { token: bot.token })).status).toBe(200);
    expect((await kiln.api('DELETE', `/projects/${project.id}`, { token: alice.token })).status).toBe(202);
    // Blocked with the deletion (a blocked user's token is refused with 403), deleted by the job.
    expect((await kiln.api('GET', '/user', { token: bot.token })).status).toBe(403);
    await kiln.worker.drain();
    await expectGone(bot);
    expect((await kiln.api('GET', '/user', { token: keptBot.token })).status).toBe(200);
  });
});

describe('deleting a group', () => {
  it('deletes the bots of the group, its subgroups and their projects', async () => {
    const group = await kiln.createGroup(alice, 'doomed-group');
    const sub = await kiln.createGroup(alice, 'sub', { parent_id: group.id });
    const project = await kiln.createProject(alice, 'app', { namespace_id: sub.id });
    const bots = [await tokenOf('groups', group.id, 'group-ci'), await tokenOf('groups', sub.id, 'sub-ci'), await tokenOf('projects', project.id, 'app-ci')];
    expect((await kiln.api('DELETE', `/groups/${group.id}`, { token: alice.token })).status).toBe(202);
    await kiln.worker.drain();
    for (const bot of bots) await expectGone(bot);
  });
});
