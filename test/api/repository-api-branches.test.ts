// The branches API on Kiln's git hosting (doc/api/branches.md): list, get, create and delete, with
// GitLab's entity, the protected-branch rules of a push from the web, and push events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { commit, create, repositoryWorld, update, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let world: RepositoryWorld;
let base: string;
let main: any;

const branches = (suffix = '') => `/projects/${world.project.id}/repository/branches${suffix}`;

async function pushEvents(projectId: number): Promise<any[]> {
  const response = await kiln.api('GET', `/projects/${projectId}/events`, { token: kiln.root.token, query: { action: 'pushed', per_page: 100 } });
  expect(response.status).toBe(200);
  return response.body.map((event: any) => ({ author: event.author_id, ...event.push_data }));
}

beforeAll(async () => {
  kiln = await testKiln();
  world = await repositoryWorld(kiln);
  base = `/projects/${world.project.id}`;
  main = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'Initial commit', actions: [create('README.md', '# app\n')] });
  kiln.clock.advance(60_000);
  for (const name of ['feature/login.v2', 'behind', 'zeta']) {
    const made = await kiln.api('POST', branches(), { token: world.owner.token, body: { branch: name, ref: 'main' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  }
  kiln.clock.advance(60_000);
  await commit(kiln, world.owner.token, world.project.id, { branch: 'main', actions: [create('later.txt')] });
  kiln.clock.advance(60_000);
  await commit(kiln, world.owner.token, world.project.id, { branch: 'zeta', actions: [create('zeta.txt')] });
});
afterAll(async () => {
  await kiln?.close();
});

describe('GET /api/v4/projects/:id/repository/branches', () => {
  describe('as a reporter', () => {
    it('lists branches by name with GitLab’s entity', async () => {
      const response = await kiln.api('GET', branches(), { token: world.reporter.token });
      expect(response.status).toBe(200);
      expect(response.body.map((branch: any) => branch.name)).toEqual(['behind', 'feature/login.v2', 'main', 'zeta']);
      const mainBranch = response.body.find((branch: any) => branch.name === 'main');
      expect(Object.keys(mainBranch)).toEqual(['name', 'commit', 'merged', 'protected', 'developers_can_push', 'developers_can_merge', 'can_push', 'default', 'web_url']);
      expect(mainBranch).toMatchObject({ merged: false, protected: true, developers_can_push: false, developers_can_merge: false, can_push: false, default: true, web_url: `http://kiln.test/${world.project.path_with_namespace}/-/tree/main` });
      expect(Object.keys(mainBranch.commit)).toEqual(['id', 'short_id', 'created_at', 'parent_ids', 'title', 'message', 'author_name', 'author_email', 'authored_date', 'committer_name', 'committer_email', 'committed_date', 'trailers', 'extended_trailers', 'web_url']);
      expect(mainBranch.commit.parent_ids).toEqual([main.id]);
    });

    it('marks a branch behind the default branch as merged, and one ahead or at it as not', async () => {
      const response = await kiln.api('GET', branches(), { token: world.reporter.token });
      const merged = Object.fromEntries(response.body.map((branch: any) => [branch.name, branch.merged]));
      expect(merged).toEqual({ behind: true, 'feature/login.v2': true, main: false, zeta: false });
    });

    it.each([
      ['login', ['feature/login.v2']],
      ['^FEAT', ['feature/login.v2']],
      ['a$', ['zeta']],
      ['^main$', ['main']],
      ['nothing', []],
    ])('filters by search=%j', async (search, names) => {
      const response = await kiln.api('GET', branches(), { token: world.reporter.token, query: { search } });
      expect(response.body.map((branch: any) => branch.name)).toEqual(names);
    });

    it('sorts by the tip’s commit date with sort=updated_desc', async () => {
      const response = await kiln.api('GET', branches(), { token: world.reporter.token, query: { sort: 'updated_desc' } });
      expect(response.body.map((branch: any) => branch.name)).toEqual(['zeta', 'main', 'behind', 'feature/login.v2']);
    });

    it('pages with GitLab’s headers', async () => {
      const response = await kiln.api('GET', branches(), { token: world.reporter.token, query: { per_page: 3, page: 2 } });
      expect(response.body.map((branch: any) => branch.name)).toEqual(['zeta']);
      expect(response.headers['x-total']).toBe('4');
      expect(response.headers['x-total-pages']).toBe('2');
      expect(response.headers['x-prev-page']).toBe('1');
      expect(response.headers['x-next-page']).toBe('');
    });
  });

  describe('as a developer', () => {
    it('can push to an unprotected branch but not to the protected default branch', async () => {
      const response = await kiln.api('GET', branches(), { token: world.developer.token });
      const canPush = Object.fromEntries(response.body.map((branch: any) => [branch.name, branch.can_push]));
      expect(canPush).toEqual({ behind: true, 'feature/login.v2': true, main: false, zeta: true });
    });
  });

  describe('as a guest of a private project', () => {
    it('is refused (Guests do not read a private project’s code)', async () => {
      expect((await kiln.api('GET', branches(), { token: world.guest.token })).status).toBe(403);
    });
  });

  describe('as a non-member of a private project', () => {
    it('answers 404 Project Not Found', async () => {
      const response = await kiln.api('GET', branches(), { token: world.stranger.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Project Not Found' });
    });
  });

  describe('anonymously on a public project', () => {
    it('lists its branches', async () => {
      const publicGroup = await kiln.createGroup(world.owner, 'public-team', { visibility: 'public' });
      const project = await kiln.createProject(world.owner, 'public-app', { namespace_id: publicGroup.id, visibility: 'public' });
      await commit(kiln, world.owner.token, project.id, { branch: 'main', actions: [create('a.txt')] });
      const response = await kiln.api('GET', `/projects/${project.id}/repository/branches`);
      expect(response.status).toBe(200);
      expect(response.body.map((branch: any) => [branch.name, branch.can_push])).toEqual([['main', false]]);
    });
  });

  describe('on a project without a repository yet', () => {
    it('answers an empty list', async () => {
      const fresh = await kiln.createProject(world.owner, 'fresh', { namespace_id: world.group.id });
      const response = await kiln.api('GET', `/projects/${fresh.id}/repository/branches`, { token: world.owner.token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    });
  });
});

describe('GET /api/v4/projects/:id/repository/branches/:branch', () => {
  describe('as a reporter', () => {
    it('finds a name with slashes and periods when URL-encoded', async () => {
      const response = await kiln.api('GET', branches(`/${encodeURIComponent('feature/login.v2')}`), { token: world.reporter.token });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ name: 'feature/login.v2', default: false, protected: false, commit: { id: main.id } });
    });

    it('answers 404 Branch Not Found for a missing branch', async () => {
      const response = await kiln.api('GET', branches('/nope'), { token: world.reporter.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Branch Not Found' });
    });
  });

  describe('with a protected branch rule letting developers push', () => {
    it('shows developers_can_push and can_push for a developer', async () => {
      const rule = await kiln.api('POST', `${base}/protected_branches`, { token: world.owner.token, body: { name: 'zeta', push_access_level: 30, merge_access_level: 40 } });
      expect(rule.status).toBe(201);
      const response = await kiln.api('GET', branches('/zeta'), { token: world.developer.token });
      expect(response.body).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: false, can_push: true });
      await kiln.api('DELETE', `${base}/protected_branches/zeta`, { token: world.owner.token });
    });
  });
});

describe('POST /api/v4/projects/:id/repository/branches', () => {
  describe('as a developer', () => {
    it('creates a branch from a ref and records a push event', async () => {
      const response = await kiln.api('POST', branches(), { token: world.developer.token, body: { branch: 'topic/one', ref: 'main' } });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ name: 'topic/one', protected: false, can_push: true, merged: false, default: false });
      const events = await pushEvents(world.project.id);
      expect(events.find((event) => event.ref === 'topic/one')).toMatchObject({ author: world.developer.id, action: 'created', ref_type: 'branch', commit_count: 0, commit_to: response.body.commit.id, commit_from: null });
    });

    it('creates from a commit sha', async () => {
      const response = await kiln.api('POST', branches(), { token: world.developer.token, body: { branch: 'from-sha', ref: main.id } });
      expect(response.status).toBe(201);
      expect(response.body.commit.id).toBe(main.id);
    });

    it.each([
      [{ branch: 'a..b', ref: 'main' }, 'Branch name is invalid'],
      [{ branch: 'main', ref: 'main' }, 'Branch already exists'],
      [{ branch: 'new-one', ref: 'nope' }, "Failed to create branch 'new-one': invalid reference name 'nope'"],
      [{ branch: 'feature', ref: 'main' }, "Failed to create branch 'feature': Branch name conflicts with existing branch hierarchy."],
      [{ branch: 'behind/deeper', ref: 'main' }, "Failed to create branch 'behind/deeper': Branch name conflicts with existing branch hierarchy."],
      [{ branch: 'a'.repeat(40), ref: 'main' }, 'You cannot create a branch with a 40-character hexadecimal branch name.'],
    ])('refuses %j with 400 %j', async (body, message) => {
      const response = await kiln.api('POST', branches(), { token: world.developer.token, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message });
    });

    it('names missing parameters as Grape does', async () => {
      const response = await kiln.api('POST', branches(), { token: world.developer.token, body: {} });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'branch is missing, ref is missing' });
      const blank = await kiln.api('POST', branches(), { token: world.developer.token, body: { branch: '', ref: '' } });
      expect(blank.body).toEqual({ error: 'branch is empty, ref is empty' });
    });
  });

  describe('for a name a protected branch rule covers', () => {
    it('lets a developer who may merge create it from a protected branch’s commit, as the web does', async () => {
      await kiln.api('POST', `${base}/protected_branches`, { token: world.owner.token, body: { name: 'release/*', push_access_level: 40, merge_access_level: 30 } });
      const response = await kiln.api('POST', branches(), { token: world.developer.token, body: { branch: 'release/1.0', ref: 'main' } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toMatchObject({ protected: true, can_push: false, developers_can_merge: true });
    });

    it('refuses a start commit no protected branch has', async () => {
      const response = await kiln.api('POST', branches(), { token: world.developer.token, body: { branch: 'release/2.0', ref: 'zeta' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'You can only use an existing protected branch ref as the basis of a new protected branch.' });
    });

    it('refuses a developer who may neither push nor merge', async () => {
      await kiln.api('POST', `${base}/protected_branches`, { token: world.owner.token, body: { name: 'stable-*', push_access_level: 40, merge_access_level: 40 } });
      const response = await kiln.api('POST', branches(), { token: world.developer.token, body: { branch: 'stable-1', ref: 'main' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'You are not allowed to create protected branches on this project.' });
      const maintainer = await kiln.api('POST', branches(), { token: world.maintainer.token, body: { branch: 'stable-1', ref: 'main' } });
      expect(maintainer.status).toBe(201);
    });
  });

  describe('as a reporter', () => {
    it('is refused with 403', async () => {
      expect((await kiln.api('POST', branches(), { token: world.reporter.token, body: { branch: 'x', ref: 'main' } })).status).toBe(403);
    });
  });

  describe('in an empty repository', () => {
    it('first makes the default branch with an empty README.md, as GitLab does', async () => {
      const empty = await kiln.createProject(world.owner, 'empty-one', { namespace_id: world.group.id });
      const response = await kiln.api('POST', `/projects/${empty.id}/repository/branches`, { token: world.owner.token, body: { branch: 'dev', ref: 'main' } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body.commit.title).toBe('Add README.md');
      const tree = await kiln.api('GET', `/projects/${empty.id}/repository/tree`, { token: world.owner.token });
      expect(tree.body.map((entry: any) => entry.path)).toEqual(['README.md']);
    });

    it('refuses a developer: the first branch is for Maintainers to create (default branch protection)', async () => {
      const empty = await kiln.createProject(world.owner, 'empty-two', { namespace_id: world.group.id });
      await kiln.addMember(world.owner, 'projects', empty.id, world.developer, 30);
      const response = await kiln.api('POST', `/projects/${empty.id}/repository/branches`, { token: world.developer.token, body: { branch: 'dev', ref: 'main' } });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^A default branch \(e\.g\. main\) does not yet exist for team\d+\/empty-two\nAsk a project Owner or Maintainer to create a default branch:/);
      expect((await kiln.api('GET', `/projects/${empty.id}/repository/branches`, { token: world.developer.token })).body).toEqual([]);
    });
  });
});

describe('DELETE /api/v4/projects/:id/repository/branches/:branch', () => {
  describe('as a developer', () => {
    it('deletes a branch and records a removal', async () => {
      await kiln.api('POST', branches(), { token: world.developer.token, body: { branch: 'doomed/x', ref: 'main' } });
      const response = await kiln.api('DELETE', branches(`/${encodeURIComponent('doomed/x')}`), { token: world.developer.token });
      expect(response.status).toBe(204);
      expect((await kiln.api('GET', branches(`/${encodeURIComponent('doomed/x')}`), { token: world.developer.token })).status).toBe(404);
      const events = await pushEvents(world.project.id);
      expect(events.find((event) => event.ref === 'doomed/x' && event.action === 'removed')).toMatchObject({ commit_to: null, ref_type: 'branch' });
    });

    it('refuses the default branch', async () => {
      const response = await kiln.api('DELETE', branches('/main'), { token: world.owner.token });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'The default branch of a project cannot be deleted.' });
    });

    it('refuses a protected branch; a maintainer deletes it, as from the web', async () => {
      const refused = await kiln.api('DELETE', branches(`/${encodeURIComponent('release/1.0')}`), { token: world.developer.token });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.' });
      const deleted = await kiln.api('DELETE', branches(`/${encodeURIComponent('release/1.0')}`), { token: world.maintainer.token });
      expect(deleted.status).toBe(204);
    });

    it('answers 404 Branch Not Found for a missing branch', async () => {
      const response = await kiln.api('DELETE', branches('/nope'), { token: world.developer.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Branch Not Found' });
    });
  });

  describe('as a reporter', () => {
    it('is refused with 403', async () => {
      expect((await kiln.api('DELETE', branches('/behind'), { token: world.reporter.token })).status).toBe(403);
    });
  });

  describe('after a commit through the API', () => {
    it('the branch keeps the new commit', async () => {
      const made = await commit(kiln, world.developer.token, world.project.id, { branch: 'behind', actions: [update('README.md', 'changed\n')] });
      const response = await kiln.api('GET', branches('/behind'), { token: world.developer.token });
      expect(response.body.commit.id).toBe(made.id);
      expect(response.body.merged).toBe(false);
    });
  });
});

describe('DELETE /api/v4/projects/:id/repository/merged_branches', () => {
  describe('as a developer', () => {
    it('deletes the branches merged into the default branch, keeping protected ones and those at its commit', async () => {
      const project = await kiln.createProject(world.owner, 'merged', { namespace_id: world.group.id });
      await kiln.addMember(world.owner, 'projects', project.id, world.developer, 30);
      const first = await commit(kiln, world.owner.token, project.id, { branch: 'main', actions: [create('a.txt')] });
      for (const branch of ['old-one', 'old-two', 'kept/protected']) {
        await kiln.api('POST', `/projects/${project.id}/repository/branches`, { token: world.owner.token, body: { branch, ref: first.id } });
      }
      await commit(kiln, world.owner.token, project.id, { branch: 'main', actions: [create('b.txt')] });
      await kiln.api('POST', `/projects/${project.id}/repository/branches`, { token: world.owner.token, body: { branch: 'at-main', ref: 'main' } });
      await commit(kiln, world.owner.token, project.id, { branch: 'ahead', start_branch: 'main', actions: [create('c.txt')] });
      await kiln.api('POST', `/projects/${project.id}/protected_branches`, { token: world.owner.token, body: { name: 'kept/*' } });
      const response = await kiln.api('DELETE', `/projects/${project.id}/repository/merged_branches`, { token: world.developer.token });
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ message: '202 Accepted' });
      const left = await kiln.api('GET', `/projects/${project.id}/repository/branches`, { token: world.developer.token });
      expect(left.body.map((branch: any) => branch.name)).toEqual(['ahead', 'at-main', 'kept/protected', 'main']);
    });
  });

  describe('as a reporter', () => {
    it('is refused with 403', async () => {
      expect((await kiln.api('DELETE', branches('').replace('/branches', '/merged_branches'), { token: world.reporter.token })).status).toBe(403);
    });
  });
});
