// `owned=true` on the group lists: the groups the caller is a direct, live Owner of (GitLab answers it
// with User#owned_groups), not every group they reach. Ownership inherited by a subgroup, a group shared
// with the user's group, a lower membership and an expired one are all left out; an administrator's
// `owned` is theirs too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let top: { id: number };
let lent: { id: number };
let mine: { id: number };
let temporary: { id: number };

async function ownedPaths(user: TestUser, path = '/groups'): Promise<string[]> {
  const { status, body } = await kiln.api('GET', path, { token: user.token, query: { owned: true } });
  expect(status).toBe(200);
  return body.map((group: { full_path: string }) => group.full_path).sort();
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  admin = await kiln.createUser('boss', { admin: true });
  top = await kiln.createGroup(alice, 'top', { visibility: 'private' });
  await kiln.createGroup(alice, 'sub', { visibility: 'private', parent_id: top.id });
  mine = await kiln.createGroup(bob, 'mine', { visibility: 'internal' });
  lent = await kiln.createGroup(alice, 'lent', { visibility: 'private' });
  temporary = await kiln.createGroup(alice, 'temporary', { visibility: 'private' });
  // bob: Owner of top (so of top/sub by inheritance), Maintainer of lent, reaches lent's share at Owner through mine.
  await kiln.addMember(alice, 'groups', top.id, bob, ACCESS.owner);
  await kiln.addMember(alice, 'groups', lent.id, bob, ACCESS.maintainer);
  await kiln.apiAs(alice, 'POST', `/groups/${lent.id}/share`, { group_id: mine.id, group_access: ACCESS.owner });
  await kiln.apiAs(alice, 'POST', `/groups/${temporary.id}/members`, { user_id: bob.id, access_level: ACCESS.owner, expires_at: '2026-11-25' });
});
afterAll(() => kiln.close());

describe('GET /groups?owned=true', () => {
  it('lists the groups the user is a direct Owner of, not those reached by inheritance, a share or a lower level', async () => {
    expect(await ownedPaths(bob)).toEqual(['mine', 'temporary', 'top']);
    expect(await ownedPaths(alice)).toEqual(['lent', 'temporary', 'top', 'top/sub']);
  });

  it('is the administrator\'s own groups for an administrator', async () => {
    expect(await ownedPaths(admin)).toEqual([]);
    const { body } = await kiln.api('GET', '/groups', { token: admin.token });
    expect(body.length).toBeGreaterThanOrEqual(5);
  });

  it('filters the subgroup lists the same way', async () => {
    expect(await ownedPaths(bob, `/groups/${top.id}/subgroups`)).toEqual([]);
    expect(await ownedPaths(bob, `/groups/${top.id}/descendant_groups`)).toEqual([]);
    expect(await ownedPaths(alice, `/groups/${top.id}/subgroups`)).toEqual(['top/sub']);
  });

  it('leaves out an expired membership', async () => {
    kiln.clock.advance(5 * 24 * 3600 * 1000);
    expect(await ownedPaths(bob)).toEqual(['mine', 'top']);
  });
});
