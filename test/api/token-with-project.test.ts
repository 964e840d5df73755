// The route kit reads a personal access token and the project its route names in one statement
// (accounts/resolve-token-with-project.ts). What it hands findProject must be what findProject would
// have read itself: the same rows, the same level; and a token is judged as resolvePersonalAccessToken judges it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { resolveTokenWithProject } from '../../src/accounts/resolve-token-with-project.js';
import { resolvePersonalAccessToken } from '../../src/accounts/resolve-personal-access-token.js';
import { findProjectRow } from '../../src/accounts/lookup.js';
import { levelOn, projectAccess } from '../../src/accounts/access.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let groupMember: TestUser;
let projectMember: TestUser;
let lapsed: TestUser;
let revokedUser: TestUser;
const projects: Array<{ id: number; path_with_namespace: string }> = [];

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('twp-owner');
  groupMember = await kiln.createUser('twp-group-member');
  projectMember = await kiln.createUser('twp-project-member');
  lapsed = await kiln.createUser('twp-lapsed');
  revokedUser = await kiln.createUser('twp-revoked');
  const top = await kiln.createGroup(owner, 'twp-top');
  const sub = await kiln.createGroup(owner, 'twp-sub', { parent_id: top.id });
  await kiln.addMember(owner, 'groups', top.id, groupMember, ACCESS.maintainer);
  await kiln.addMember(owner, 'groups', sub.id, lapsed, ACCESS.developer);
  await kiln.deps.db.updateTable('members').set({ expires_at: '2020-01-01' }).where('user_id', '=', lapsed.id).execute();
  projects.push(await kiln.createProject(owner, 'deep', { namespace_id: sub.id }));
  projects.push(await kiln.createProject(owner, 'personal'));
  projects.push(await kiln.createProject(owner, 'open', { visibility: 'public' }));
  await kiln.addMember(owner, 'projects', projects[1].id, projectMember, ACCESS.reporter);
  await kiln.deps.db.updateTable('projects').set({ avatar: 'a.png', topics: '["x"]' }).where('id', '=', projects[0].id).execute();
  await kiln.deps.db.updateTable('namespaces').set({ avatar: 'g.png' }).where('id', '=', sub.id).execute();
  await kiln.deps.db.updateTable('personal_access_tokens').set({ revoked: 1 }).where('user_id', '=', revokedUser.id).execute();
});
afterAll(() => kiln.close());

describe('a token read with the project its route names', () => {
  it('hands over the rows and the level findProject reads, by id and by path, for every kind of membership', async () => {
    for (const user of [owner, groupMember, projectMember, lapsed, kiln.root]) {
      for (const project of projects) {
        for (const idOrPath of [String(project.id), project.path_with_namespace.toUpperCase()]) {
          const { lookup, project: prefetched } = await resolveTokenWithProject(kiln.deps, user.token, idOrPath);
          expect(lookup).toEqual(await resolvePersonalAccessToken(kiln.deps, user.token));
          const row = (await findProjectRow(kiln.deps, idOrPath))!;
          const principal = lookup?.status === 'ok' ? lookup.principal : null;
          const expected = await projectAccess(kiln.deps.reads, principal!.user, row, kiln.clock.now());
          expect(prefetched!.project).toEqual(row);
          expect(prefetched!.namespace).toEqual(expected.namespace);
          expect(levelOn(principal!.user, prefetched!.namespace, prefetched!.memberLevel)).toBe(expected.level);
        }
      }
    }
  });

  it('names no project for an unknown id, a bare word or an old path, and still judges the token', async () => {
    for (const idOrPath of ['999999', 'deep', 'nobody/nothing']) {
      const { lookup, project } = await resolveTokenWithProject(kiln.deps, owner.token, idOrPath);
      expect(project).toBeNull();
      expect(lookup?.status).toBe('ok');
    }
  });

  it('judges a revoked or unknown token as the token resolver does', async () => {
    expect((await resolveTokenWithProject(kiln.deps, revokedUser.token, String(projects[2].id))).lookup).toEqual({ status: 'revoked' });
    expect((await resolveTokenWithProject(kiln.deps, 'glpat-unknown', String(projects[2].id))).lookup).toBeNull();
    const { status, body } = await kiln.api('GET', `/projects/${projects[2].id}`, { token: revokedUser.token });
    expect({ status, body }).toEqual({ status: 401, body: { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' } });
  });

  it('is not used for another user under Sudo: the project is read for the user acted as', async () => {
    const { status, body } = await kiln.api('GET', `/projects/${projects[1].id}`, { token: kiln.root.token, headers: { sudo: groupMember.username } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Project Not Found' });
    const asMember = await kiln.api('GET', `/projects/${projects[1].id}`, { token: kiln.root.token, headers: { sudo: projectMember.username } });
    expect(asMember.body.permissions).toEqual({ project_access: { access_level: ACCESS.reporter, notification_level: 3 }, group_access: null });
  });
});
