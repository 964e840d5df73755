// Member management as GitLab does it, and the takeover the security review reproduced: a Maintainer
// made themselves Owner, then removed the real Owner. Only Owners touch Owner; nobody grants more
// than they hold or raises their own level; a group keeps one Owner; inherited members are edited
// where they were granted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let outsider: TestUser;
let serial = 0;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maintainer');
  developer = await kiln.createUser('developer');
  outsider = await kiln.createUser('outsider');
});
afterAll(() => kiln.close());

/** A fresh group owned by `owner`, with `maintainer` and `developer` as members. */
async function team(visibility = 'private'): Promise<{ id: number; path: string }> {
  serial += 1;
  const group = await kiln.createGroup(owner, `team-${serial}`, { visibility });
  await kiln.addMember(owner, 'groups', group.id, maintainer, ACCESS.maintainer);
  await kiln.addMember(owner, 'groups', group.id, developer, ACCESS.developer);
  return group;
}

async function levels(kind: 'groups' | 'projects', id: number): Promise<Record<string, number>> {
  const { body } = await kiln.api('GET', `/${kind}/${id}/members?per_page=100`, { token: kiln.root.token });
  return Object.fromEntries(body.map((member: { username: string; access_level: number }) => [member.username, member.access_level]));
}

const FORBIDDEN = 403;

describe('PUT /api/v4/groups/:id/members/:user_id', () => {
  describe('as a maintainer', () => {
    it('raising themselves to Owner answers 403 and leaves them Maintainer', async () => {
      const group = await team();
      const { status, body } = await kiln.api('PUT', `/groups/${group.id}/members/${maintainer.id}`, { token: maintainer.token, body: { access_level: ACCESS.owner } });
      expect(status).toBe(FORBIDDEN);
      expect(body.message).toMatch(/^403 Forbidden/);
      expect((await levels('groups', group.id)).maintainer).toBe(ACCESS.maintainer);
    });

    it('demoting the Owner answers 403', async () => {
      const group = await team();
      expect((await kiln.api('PUT', `/groups/${group.id}/members/${owner.id}`, { token: maintainer.token, body: { access_level: ACCESS.developer } })).status).toBe(FORBIDDEN);
      expect((await levels('groups', group.id)).owner).toBe(ACCESS.owner);
    });

    // Group members are managed by Owners (GitLab's group_policy.rb: admin_group_member).
    it('changing a developer answers 403, to Maintainer or to Owner', async () => {
      const group = await team();
      for (const level of [ACCESS.maintainer, ACCESS.owner]) {
        expect((await kiln.api('PUT', `/groups/${group.id}/members/${developer.id}`, { token: maintainer.token, body: { access_level: level } })).status).toBe(FORBIDDEN);
      }
      expect((await levels('groups', group.id)).developer).toBe(ACCESS.developer);
    });
  });

  describe('as a developer', () => {
    it('raising themselves answers 403', async () => {
      const group = await team();
      expect((await kiln.api('PUT', `/groups/${group.id}/members/${developer.id}`, { token: developer.token, body: { access_level: ACCESS.maintainer } })).status).toBe(FORBIDDEN);
    });
  });

  describe('as the owner', () => {
    it('promotes a developer to Maintainer (200)', async () => {
      const group = await team();
      const promoted = await kiln.api('PUT', `/groups/${group.id}/members/${developer.id}`, { token: owner.token, body: { access_level: ACCESS.maintainer } });
      expect(promoted.status).toBe(200);
      expect(promoted.body).toMatchObject({ username: 'developer', access_level: ACCESS.maintainer });
    });

    it('promotes a maintainer to Owner (200)', async () => {
      const group = await team();
      expect((await kiln.api('PUT', `/groups/${group.id}/members/${maintainer.id}`, { token: owner.token, body: { access_level: ACCESS.owner } })).status).toBe(200);
      expect((await levels('groups', group.id)).maintainer).toBe(ACCESS.owner);
    });

    it('demoting themselves as the last Owner answers 403 with a message saying why', async () => {
      const group = await team();
      const { status, body } = await kiln.api('PUT', `/groups/${group.id}/members/${owner.id}`, { token: owner.token, body: { access_level: ACCESS.maintainer } });
      expect(status).toBe(FORBIDDEN);
      expect(body.message).toBe('403 Forbidden - A group must keep at least one Owner: the last Owner cannot be removed or demoted');
    });

    it('with a second Owner, demotes themselves (200)', async () => {
      const group = await team();
      await kiln.api('PUT', `/groups/${group.id}/members/${maintainer.id}`, { token: owner.token, body: { access_level: ACCESS.owner } });
      expect((await kiln.api('PUT', `/groups/${group.id}/members/${owner.id}`, { token: owner.token, body: { access_level: ACCESS.maintainer } })).status).toBe(200);
    });
  });

  describe('as an administrator', () => {
    it('promotes to Owner, but cannot demote the last Owner either (403)', async () => {
      const group = await team();
      expect((await kiln.api('PUT', `/groups/${group.id}/members/${owner.id}`, { token: kiln.root.token, body: { access_level: ACCESS.guest } })).status).toBe(FORBIDDEN);
      expect((await kiln.api('PUT', `/groups/${group.id}/members/${developer.id}`, { token: kiln.root.token, body: { access_level: ACCESS.owner } })).status).toBe(200);
    });
  });

  describe('of a member inherited from the parent group', () => {
    it('answers 404 Member Not Found at the subgroup', async () => {
      const group = await team();
      const sub = await kiln.createGroup(owner, `sub-${serial}`, { parent_id: group.id });
      const { status, body } = await kiln.api('PUT', `/groups/${sub.id}/members/${developer.id}`, { token: owner.token, body: { access_level: ACCESS.maintainer } });
      expect(status).toBe(404);
      expect(body).toEqual({ message: '404 Member Not Found' });
    });
  });
});

describe('POST /api/v4/groups/:id/members', () => {
  describe('as a maintainer', () => {
    it('adding someone as Owner answers 403 and adds nobody', async () => {
      const group = await team();
      expect((await kiln.api('POST', `/groups/${group.id}/members`, { token: maintainer.token, body: { user_id: outsider.id, access_level: ACCESS.owner } })).status).toBe(FORBIDDEN);
      expect((await levels('groups', group.id)).outsider).toBeUndefined();
    });

    it('adding someone as Maintainer answers 403 too (Owners manage group members)', async () => {
      const group = await team();
      expect((await kiln.api('POST', `/groups/${group.id}/members`, { token: maintainer.token, body: { user_id: outsider.id, access_level: ACCESS.maintainer } })).status).toBe(FORBIDDEN);
      expect((await levels('groups', group.id)).outsider).toBeUndefined();
    });
  });

  describe('as a developer', () => {
    it('answers 403', async () => {
      const group = await team();
      expect((await kiln.api('POST', `/groups/${group.id}/members`, { token: developer.token, body: { user_id: outsider.id, access_level: ACCESS.guest } })).status).toBe(FORBIDDEN);
    });
  });

  describe('below a level inherited from the parent group', () => {
    it("answers 400 with GitLab's message; at or above it, 201", async () => {
      const group = await team();
      const sub = await kiln.createGroup(owner, `sub-${serial}`, { parent_id: group.id });
      const low = await kiln.api('POST', `/groups/${sub.id}/members`, { token: owner.token, body: { user_id: developer.id, access_level: ACCESS.reporter } });
      expect(low.status).toBe(400);
      expect(low.body).toEqual({ message: { access_level: [`should be greater than or equal to Developer inherited membership from group ${group.path}`] } });
      expect((await kiln.api('POST', `/groups/${sub.id}/members`, { token: owner.token, body: { user_id: developer.id, access_level: ACCESS.maintainer } })).status).toBe(201);
    });
  });
});

describe('DELETE /api/v4/groups/:id/members/:user_id', () => {
  describe('as a maintainer', () => {
    it('removing the Owner answers 403; the Owner keeps the group', async () => {
      const group = await team();
      expect((await kiln.api('DELETE', `/groups/${group.id}/members/${owner.id}`, { token: maintainer.token })).status).toBe(FORBIDDEN);
      expect((await kiln.api('GET', `/groups/${group.id}`, { token: owner.token })).status).toBe(200);
      expect((await levels('groups', group.id)).owner).toBe(ACCESS.owner);
    });

    it('removing a developer answers 403 too (Owners manage group members)', async () => {
      const group = await team();
      expect((await kiln.api('DELETE', `/groups/${group.id}/members/${developer.id}`, { token: maintainer.token })).status).toBe(FORBIDDEN);
      expect((await levels('groups', group.id)).developer).toBe(ACCESS.developer);
    });
  });

  describe('of themselves', () => {
    it('a developer leaves (204)', async () => {
      const group = await team();
      expect((await kiln.api('DELETE', `/groups/${group.id}/members/${developer.id}`, { token: developer.token })).status).toBe(204);
      expect((await kiln.api('GET', `/groups/${group.id}`, { token: developer.token })).status).toBe(404);
    });

    it('the last Owner cannot leave (403 with the message)', async () => {
      const group = await team();
      const { status, body } = await kiln.api('DELETE', `/groups/${group.id}/members/${owner.id}`, { token: owner.token });
      expect(status).toBe(FORBIDDEN);
      expect(body.message).toContain('the last Owner cannot be removed or demoted');
    });

    it('an Owner leaves when another Owner stays (204)', async () => {
      const group = await team();
      await kiln.api('PUT', `/groups/${group.id}/members/${maintainer.id}`, { token: owner.token, body: { access_level: ACCESS.owner } });
      expect((await kiln.api('DELETE', `/groups/${group.id}/members/${owner.id}`, { token: owner.token })).status).toBe(204);
    });

    it("a subgroup's only direct Owner leaves when the parent group has an Owner (inherited Owners count)", async () => {
      const group = await team();
      const sub = await kiln.createGroup(maintainer, `sub-${serial}`, { parent_id: group.id });
      expect((await levels('groups', sub.id)).maintainer).toBe(ACCESS.owner);
      expect((await kiln.api('DELETE', `/groups/${sub.id}/members/${maintainer.id}`, { token: maintainer.token })).status).toBe(204);
    });
  });

  describe('of a member inherited from the parent group', () => {
    it('answers 404 Member Not Found at the subgroup and leaves the membership', async () => {
      const group = await team();
      const sub = await kiln.createGroup(owner, `sub-${serial}`, { parent_id: group.id });
      expect(await kiln.api('DELETE', `/groups/${sub.id}/members/${developer.id}`, { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Member Not Found' } });
      expect((await kiln.api('GET', `/groups/${sub.id}`, { token: developer.token })).status).toBe(200);
    });
  });
});

describe('/api/v4/projects/:id/members', () => {
  /** A private project in a fresh group; `maintainer` is a Maintainer of the project itself. */
  async function project() {
    serial += 1;
    const group = await kiln.createGroup(owner, `home-${serial}`);
    const made = await kiln.createProject(owner, `app-${serial}`, { namespace_id: group.id });
    await kiln.addMember(owner, 'projects', made.id, maintainer, ACCESS.maintainer);
    return { group, project: made };
  }

  describe('as a maintainer', () => {
    it('PUT of themselves to Owner answers 403', async () => {
      const { project: made } = await project();
      expect((await kiln.api('PUT', `/projects/${made.id}/members/${maintainer.id}`, { token: maintainer.token, body: { access_level: ACCESS.owner } })).status).toBe(FORBIDDEN);
      expect((await levels('projects', made.id)).maintainer).toBe(ACCESS.maintainer);
    });

    it('adding someone as Owner answers 403', async () => {
      const { project: made } = await project();
      expect((await kiln.api('POST', `/projects/${made.id}/members`, { token: maintainer.token, body: { user_id: outsider.id, access_level: ACCESS.owner } })).status).toBe(FORBIDDEN);
      expect((await levels('projects', made.id)).outsider).toBeUndefined();
    });

    it('removing an Owner answers 403', async () => {
      const { project: made } = await project();
      await kiln.addMember(owner, 'projects', made.id, outsider, ACCESS.owner);
      expect((await kiln.api('DELETE', `/projects/${made.id}/members/${outsider.id}`, { token: maintainer.token })).status).toBe(FORBIDDEN);
      expect((await levels('projects', made.id)).outsider).toBe(ACCESS.owner);
    });

    it('demoting an Owner answers 403', async () => {
      const { project: made } = await project();
      await kiln.addMember(owner, 'projects', made.id, outsider, ACCESS.owner);
      expect((await kiln.api('PUT', `/projects/${made.id}/members/${outsider.id}`, { token: maintainer.token, body: { access_level: ACCESS.guest } })).status).toBe(FORBIDDEN);
    });
  });

  describe('of a member inherited from the group', () => {
    it('PUT and DELETE answer 404 Member Not Found', async () => {
      const { group, project: made } = await project();
      await kiln.addMember(owner, 'groups', group.id, developer, ACCESS.developer);
      expect((await kiln.api('PUT', `/projects/${made.id}/members/${developer.id}`, { token: owner.token, body: { access_level: ACCESS.maintainer } })).body).toEqual({ message: '404 Member Not Found' });
      expect((await kiln.api('DELETE', `/projects/${made.id}/members/${developer.id}`, { token: owner.token })).status).toBe(404);
      expect((await kiln.api('GET', `/projects/${made.id}`, { token: developer.token })).status).toBe(200);
    });

    it("POST below the inherited level answers 400 with GitLab's message, naming the group", async () => {
      const { group, project: made } = await project();
      await kiln.addMember(owner, 'groups', group.id, developer, ACCESS.developer);
      const { status, body } = await kiln.api('POST', `/projects/${made.id}/members`, { token: owner.token, body: { user_id: developer.id, access_level: ACCESS.guest } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { access_level: [`should be greater than or equal to Developer inherited membership from group ${group.path}`] } });
    });

    it('PUT of a direct member below their inherited level answers 400', async () => {
      const { group, project: made } = await project();
      await kiln.addMember(owner, 'projects', made.id, developer, ACCESS.maintainer);
      await kiln.addMember(owner, 'groups', group.id, developer, ACCESS.developer);
      const { status, body } = await kiln.api('PUT', `/projects/${made.id}/members/${developer.id}`, { token: owner.token, body: { access_level: ACCESS.reporter } });
      expect(status).toBe(400);
      expect(body.message.access_level[0]).toContain('inherited membership from group');
    });
  });

  describe('without a token', () => {
    // GitLab's members API authenticates first (lib/api/members.rb), also for public projects.
    it('answers 401 to every request, also for a public project', async () => {
      serial += 1;
      const open = await kiln.createProject(owner, `open-${serial}`, { visibility: 'public' });
      expect((await kiln.api('GET', `/projects/${open.id}/members`)).status).toBe(401);
      expect((await kiln.api('POST', `/projects/${open.id}/members`, { body: { user_id: outsider.id, access_level: ACCESS.guest } })).status).toBe(401);
      expect((await kiln.api('DELETE', `/projects/${open.id}/members/${outsider.id}`)).status).toBe(401);
    });
  });
});

describe('concurrent changes of the last two Owners', () => {
  // Each change counts the Owners inside its own transaction after locking the group: without the
  // lock, on PostgreSQL both see two Owners and both pass, leaving none.
  it('two Owners demoting each other at once leave one Owner', async () => {
    for (let round = 0; round < 5; round += 1) {
      const group = await team();
      await kiln.api('PUT', `/groups/${group.id}/members/${maintainer.id}`, { token: owner.token, body: { access_level: ACCESS.owner } });
      const answers = await Promise.all([
        kiln.api('PUT', `/groups/${group.id}/members/${maintainer.id}`, { token: owner.token, body: { access_level: ACCESS.developer } }),
        kiln.api('PUT', `/groups/${group.id}/members/${owner.id}`, { token: maintainer.token, body: { access_level: ACCESS.developer } }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
      const owners = Object.values(await levels('groups', group.id)).filter((level) => level === ACCESS.owner);
      expect(owners).toHaveLength(1);
    }
  });

  it('two Owners leaving at once leave one Owner', async () => {
    for (let round = 0; round < 5; round += 1) {
      const group = await team();
      await kiln.api('PUT', `/groups/${group.id}/members/${maintainer.id}`, { token: owner.token, body: { access_level: ACCESS.owner } });
      const answers = await Promise.all([
        kiln.api('DELETE', `/groups/${group.id}/members/${owner.id}`, { token: owner.token }),
        kiln.api('DELETE', `/groups/${group.id}/members/${maintainer.id}`, { token: maintainer.token }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([204, 403]);
      const owners = Object.values(await levels('groups', group.id)).filter((level) => level === ACCESS.owner);
      expect(owners).toHaveLength(1);
    }
  });
});
