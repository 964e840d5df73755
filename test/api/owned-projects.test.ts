// `owned=true` on the project lists: GitLab's ProjectsFinder answers it with User#owned_projects, the
// projects of the caller's personal namespace and those where their effective level is Owner (a direct
// Owner of the project, an Owner of a group above it, or invited at Owner), not every project they are
// a member of. GET /users/:id/projects takes no `owned` or `membership` (GitLab's PersonalProjectsFinder).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let top: { id: number };

async function paths(user: TestUser, path: string, query: Record<string, unknown>): Promise<string[]> {
  const { status, body } = await kiln.api('GET', path, { token: user.token, query: { per_page: 100, ...query } });
  expect(status).toBe(200);
  return body.map((project: { path_with_namespace: string }) => project.path_with_namespace).sort();
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  admin = await kiln.createUser('boss', { admin: true });
  await kiln.createProject(bob, 'own', { visibility: 'private' });
  await kiln.createProject(alice, 'mine', { visibility: 'private' });
  await kiln.createProject(alice, 'shown', { visibility: 'public' });
  await kiln.createProject(admin, 'kept', { visibility: 'private' });
  top = await kiln.createGroup(alice, 'top', { visibility: 'internal' });
  const developed = await kiln.createProject(alice, 'developed', { namespace_id: top.id });
  const maintained = await kiln.createProject(alice, 'maintained', { namespace_id: top.id });
  const direct = await kiln.createProject(alice, 'direct', { namespace_id: top.id });
  const temporary = await kiln.createProject(alice, 'temporary', { namespace_id: top.id });
  await kiln.addMember(alice, 'projects', developed.id, bob, ACCESS.developer);
  await kiln.addMember(alice, 'projects', maintained.id, bob, ACCESS.maintainer);
  await kiln.addMember(alice, 'projects', direct.id, bob, ACCESS.owner);
  await kiln.apiAs(alice, 'POST', `/projects/${temporary.id}/members`, { user_id: bob.id, access_level: ACCESS.owner, expires_at: '2026-11-25' });
  // bob owns `team`, so also `team/sub` below it, and their projects.
  const team = await kiln.createGroup(alice, 'team', { visibility: 'private' });
  const sub = await kiln.createGroup(alice, 'sub', { visibility: 'private', parent_id: team.id });
  await kiln.createProject(alice, 'tool', { namespace_id: team.id });
  await kiln.createProject(alice, 'lib', { namespace_id: sub.id });
  await kiln.addMember(alice, 'groups', team.id, bob, ACCESS.owner);
  // `lent` is shared with bob's group `crew`: at Owner, its project is bob's; `loaned` at Maintainer is not.
  const crew = await kiln.createGroup(bob, 'crew', { visibility: 'internal' });
  const lent = await kiln.createGroup(alice, 'lent', { visibility: 'private' });
  const loaned = await kiln.createGroup(alice, 'loaned', { visibility: 'private' });
  await kiln.createProject(alice, 'shared', { namespace_id: lent.id });
  await kiln.createProject(alice, 'capped', { namespace_id: loaned.id });
  await kiln.apiAs(alice, 'POST', `/groups/${lent.id}/share`, { group_id: crew.id, group_access: ACCESS.owner });
  await kiln.apiAs(alice, 'POST', `/groups/${loaned.id}/share`, { group_id: crew.id, group_access: ACCESS.maintainer });
});
afterAll(() => kiln.close());

describe('GET /projects?owned=true', () => {
  it('lists the personal projects and those the caller is Owner of, directly, through a group or a share, not those of a lower role', async () => {
    expect(await paths(bob, '/projects', { owned: true })).toEqual(['bob/own', 'lent/shared', 'team/sub/lib', 'team/tool', 'top/direct', 'top/temporary']);
    // Every project bob is a member of, for comparison: membership=true keeps the Developer's and the Maintainer's.
    expect(await paths(bob, '/projects', { membership: true })).toEqual(['bob/own', 'lent/shared', 'loaned/capped', 'team/sub/lib', 'team/tool', 'top/developed', 'top/direct', 'top/maintained', 'top/temporary']);
    expect(await paths(alice, '/projects', { owned: true })).toEqual(['alice/mine', 'alice/shown', 'lent/shared', 'loaned/capped', 'team/sub/lib', 'team/tool', 'top/developed', 'top/direct', 'top/maintained', 'top/temporary']);
  });

  it("is the administrator's own projects for an administrator", async () => {
    expect(await paths(admin, '/projects', { owned: true })).toEqual(['boss/kept']);
  });

  it("filters a group's projects the same way", async () => {
    expect(await paths(bob, `/groups/${top.id}/projects`, { owned: true })).toEqual(['top/direct', 'top/temporary']);
  });

  it('leaves out an expired Owner membership', async () => {
    kiln.clock.advance(5 * 24 * 3600 * 1000);
    expect(await paths(bob, '/projects', { owned: true })).toEqual(['bob/own', 'lent/shared', 'team/sub/lib', 'team/tool', 'top/direct']);
  });
});

describe('GET /users/:id/projects', () => {
  it("ignores owned and membership: the user's personal projects the caller can see", async () => {
    expect(await paths(bob, `/users/${alice.id}/projects`, {})).toEqual(['alice/shown']);
    expect(await paths(bob, `/users/${alice.id}/projects`, { owned: true })).toEqual(['alice/shown']);
    expect(await paths(bob, `/users/${alice.id}/projects`, { membership: true })).toEqual(['alice/shown']);
    expect(await paths(alice, `/users/${alice.id}/projects`, { owned: true })).toEqual(['alice/mine', 'alice/shown']);
  });
});
