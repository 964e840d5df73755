// Protected branches: the REST API (doc/api/protected_branches.md) and their enforcement on a real
// `git push` against an in-process Kiln listening on loopback, asserted on git's stderr.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { gitCommands, listenOnLoopback, twoShards } from '../helpers/git.js';
import { matchesBranch } from '../../src/repositories/protected-branches/ref-matcher.js';
import { BRANCH_MESSAGES, refuseBranchUpdate, type BranchCheckFacts } from '../../src/repositories/protected-branches/branch-check.js';
import type { ProtectedBranchRule } from '../../src/repositories/protected-branches/finder.js';
import { hooksDirectory } from '../../src/repositories/protected-branches/pre-receive-hook.js';

let kiln: TestKiln;
let base: string;
let work: string;
const { run: gitRun, ok } = gitCommands(() => work);
let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let group: any;
let project: any;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-protected-'));
  kiln = await testKiln({ storages: twoShards(work) });
  base = await listenOnLoopback(kiln.app);
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maintainer');
  developer = await kiln.createUser('developer');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'team');
  project = await kiln.createProject(owner, 'api', { namespace_id: group.id });
  await kiln.addMember(owner, 'projects', project.id, maintainer, ACCESS.maintainer);
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
});
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

const path = (name?: string) => `/projects/${project.id}/protected_branches${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;

function entity(id: number, name: string, push: number, merge: number, allowForcePush = false) {
  const describe = (level: number) => ({ 0: 'No one', 30: 'Developers + Maintainers', 40: 'Maintainers', 60: 'Administrators' })[level];
  return {
    id,
    name,
    push_access_levels: [{ id: expect.any(Number), access_level: push, access_level_description: describe(push), user_id: null, group_id: null, deploy_key_id: null }],
    merge_access_levels: [{ id: expect.any(Number), access_level: merge, access_level_description: describe(merge), user_id: null, group_id: null }],
    allow_force_push: allowForcePush,
    code_owner_approval_required: false,
  };
}

describe('POST /api/v4/projects/:id/protected_branches', () => {
  describe('as a maintainer', () => {
    it('protects a branch with GitLab\'s defaults: Maintainers push and merge, no force push', async () => {
      const { status, body } = await kiln.api('POST', path(), { token: maintainer.token, body: { name: 'main' } });
      expect(status).toBe(201);
      expect(body).toEqual(entity(body.id, 'main', 40, 40));
    });

    it('protects a wildcard with the levels and force push it is given', async () => {
      const { status, body } = await kiln.api('POST', path(), { token: maintainer.token, form: { name: 'release/*', push_access_level: '30', merge_access_level: '0', allow_force_push: 'true' } });
      expect(status).toBe(201);
      expect(body).toEqual(entity(body.id, 'release/*', 30, 0, true));
    });

    it('answers 409 for a name already protected', async () => {
      const { status, body } = await kiln.api('POST', path(), { token: maintainer.token, body: { name: 'main', push_access_level: 30 } });
      expect([status, body]).toEqual([409, { message: "Protected branch 'main' already exists" }]);
    });

    it('answers 400 for access levels GitLab does not know, and for a missing name', async () => {
      const bad = await kiln.api('POST', path(), { token: maintainer.token, body: { name: 'x', push_access_level: 20, merge_access_level: 50 } });
      expect([bad.status, bad.body]).toEqual([400, { error: 'push_access_level does not have a valid value, merge_access_level does not have a valid value' }]);
      const missing = await kiln.api('POST', path(), { token: maintainer.token, body: {} });
      expect([missing.status, missing.body]).toEqual([400, { error: 'name is missing' }]);
    });

    it('answers 422 for a blank name, as the model\'s validation', async () => {
      const { status, body } = await kiln.api('POST', path(), { token: maintainer.token, body: { name: ' ' } });
      expect([status, body]).toEqual([422, { message: ["Name can't be blank"] }]);
    });
  });

  describe('as a developer', () => {
    it('answers 403', async () => {
      expect((await kiln.api('POST', path(), { token: developer.token, body: { name: 'dev' } })).status).toBe(403);
    });
  });

  describe('as a non-member', () => {
    it('answers 404', async () => {
      expect((await kiln.api('POST', path(), { token: stranger.token, body: { name: 'dev' } })).status).toBe(404);
    });
  });
});

describe('GET /api/v4/projects/:id/protected_branches', () => {
  describe('as a reporter', () => {
    it('lists the rules by id with their access levels', async () => {
      const { status, body, headers } = await kiln.api('GET', path(), { token: reporter.token });
      expect(status).toBe(200);
      expect(body.map((rule: any) => rule.name)).toEqual(['main', 'release/*']);
      expect(body[1]).toEqual(entity(body[1].id, 'release/*', 30, 0, true));
      expect(headers['x-total']).toBe('2');
    });

    it('filters by a part of the name in any case, with LIKE wildcards taken literally', async () => {
      expect((await kiln.api('GET', path(), { token: reporter.token, query: { search: 'RELEASE' } })).body.map((rule: any) => rule.name)).toEqual(['release/*']);
      expect((await kiln.api('GET', path(), { token: reporter.token, query: { search: '%' } })).body).toEqual([]);
    });
  });

  describe('as a guest of the private project', () => {
    it('answers 403: the rules are read with the code (Reporter)', async () => {
      expect((await kiln.api('GET', path(), { token: guest.token })).status).toBe(403);
    });
  });

  describe('as a non-member', () => {
    it('answers 404', async () => {
      expect((await kiln.api('GET', path(), { token: stranger.token })).status).toBe(404);
    });
  });

  describe('anonymously', () => {
    it('reads the rules of a public project and gets 404 for a private one', async () => {
      const open = await kiln.createProject(owner, 'open', { visibility: 'public' });
      await kiln.api('POST', `/projects/${open.id}/protected_branches`, { token: owner.token, body: { name: 'stable' } });
      const listed = await kiln.api('GET', `/projects/${open.id}/protected_branches`);
      expect([listed.status, listed.body.map((rule: any) => rule.name)]).toEqual([200, ['stable']]);
      expect((await kiln.api('GET', path())).status).toBe(404);
    });
  });
});

describe('GET /api/v4/projects/:id/protected_branches/:name', () => {
  it('finds a wildcard by its URL-encoded name, also under the project path', async () => {
    const { status, body } = await kiln.api('GET', `/projects/team%2Fapi/protected_branches/release%2F*`, { token: developer.token });
    expect([status, body.name]).toEqual([200, 'release/*']);
  });

  it('answers 404 Not found for a name without a rule (a branch a wildcard matches is not a rule)', async () => {
    for (const name of ['nope', 'release/1']) {
      const { status, body } = await kiln.api('GET', path(name), { token: developer.token });
      expect([status, body]).toEqual([404, { message: '404 Not found' }]);
    }
  });
});

describe('PATCH /api/v4/projects/:id/protected_branches/:name', () => {
  it('as a maintainer changes allow_force_push', async () => {
    const { status, body } = await kiln.api('PATCH', path('release/*'), { token: maintainer.token, body: { allow_force_push: false } });
    expect([status, body.allow_force_push]).toEqual([200, false]);
    expect((await kiln.api('GET', path('release/*'), { token: maintainer.token })).body.allow_force_push).toBe(false);
  });

  it('answers 400 for a blank allow_force_push, 404 for an unknown name and 403 for a developer', async () => {
    expect((await kiln.api('PATCH', path('release/*'), { token: maintainer.token, body: { allow_force_push: '' } })).body).toEqual({ error: 'allow_force_push is empty' });
    expect((await kiln.api('PATCH', path('nope'), { token: maintainer.token, body: { allow_force_push: true } })).status).toBe(404);
    expect((await kiln.api('PATCH', path('release/*'), { token: developer.token, body: { allow_force_push: true } })).status).toBe(403);
  });
});

describe('DELETE /api/v4/projects/:id/protected_branches/:name', () => {
  it('as a developer answers 403', async () => {
    expect((await kiln.api('DELETE', path('release/*'), { token: developer.token })).status).toBe(403);
  });

  it('as a maintainer unprotects: 204, then 404', async () => {
    expect((await kiln.api('DELETE', path('release/*'), { token: maintainer.token })).status).toBe(204);
    expect((await kiln.api('GET', path('release/*'), { token: maintainer.token })).status).toBe(404);
    expect((await kiln.api('DELETE', path('release/*'), { token: maintainer.token })).status).toBe(404);
  });
});

describe('git push to protected branches', () => {
  let repo: any;
  let counter = 0;
  const remote = (user: TestUser) => `${base.replace('http://', `http://${user.username}:${user.token}@`)}/team/guarded.git`;
  const clone = async (user: TestUser, name: string) => {
    const dir = join(work, name);
    await ok(['clone', '-q', remote(user), dir]);
    return dir;
  };
  const commit = async (dir: string, message = 'change') => {
    counter += 1;
    writeFileSync(join(dir, `file-${counter}.txt`), `${counter}\n`);
    await ok(['add', '.'], dir);
    await ok(['commit', '-q', '-m', message], dir);
  };
  const push = (dir: string, ...args: string[]) => gitRun(['push', 'origin', ...args], dir);
  const refused = (result: { code: number; stderr: string }, message: string) => {
    expect(result.code, result.stderr).not.toBe(0);
    expect(result.stderr).toContain(`remote: ${message}`);
    expect(result.stderr).toContain('(pre-receive hook declined)');
  };
  const rules = async () => (await kiln.api('GET', `/projects/${repo.id}/protected_branches`, { token: owner.token })).body;

  let devDir: string;
  let maintainerDir: string;

  beforeAll(async () => {
    repo = await kiln.createProject(owner, 'guarded', { namespace_id: group.id });
    await kiln.addMember(owner, 'projects', repo.id, maintainer, ACCESS.maintainer);
    await kiln.addMember(owner, 'projects', repo.id, developer, ACCESS.developer);
    devDir = await clone(developer, 'dev');
    maintainerDir = await clone(maintainer, 'maintainer');
  });

  it('a developer cannot create the first branch of an empty repository (default branch protection)', async () => {
    await commit(devDir, 'first by a developer');
    const result = await push(devDir, 'HEAD:main');
    refused(result, 'A default branch (e.g. main) does not yet exist for team/guarded');
    expect(result.stderr).toContain('remote: Ask a project Owner or Maintainer to create a default branch:');
    expect(result.stderr).toContain(`remote:   ${kiln.config.baseUrl}/team/guarded/-/project_members`);
    expect(await rules()).toEqual([]);
  });

  it('a maintainer\'s first push creates the default branch, which is then protected as GitLab\'s default', async () => {
    await commit(maintainerDir, 'first');
    const result = await push(maintainerDir, 'HEAD:main');
    expect(result.code, result.stderr).toBe(0);
    const [rule] = await rules();
    expect(rule).toEqual(entity(rule.id, 'main', 40, 40));
  });

  it('a developer pushing to the protected default branch is refused with GitLab\'s sentence; other branches are theirs', async () => {
    await ok(['fetch', '-q', 'origin'], devDir);
    await ok(['reset', '-q', '--hard', 'origin/main'], devDir);
    await commit(devDir, 'by a developer');
    refused(await push(devDir, 'HEAD:main'), 'You are not allowed to push code to protected branches on this project.');
    const feature = await push(devDir, 'HEAD:feature');
    expect(feature.code, feature.stderr).toBe(0);
  });

  it('refuses the whole push when one of its branches is refused', async () => {
    await commit(devDir, 'two refs');
    refused(await push(devDir, 'HEAD:feature-two', 'HEAD:main'), 'You are not allowed to push code to protected branches on this project.');
    expect((await gitRun(['ls-remote', '--exit-code', 'origin', 'refs/heads/feature-two'], devDir)).code).toBe(2);
  });

  it('a maintainer pushes to it', async () => {
    await commit(maintainerDir, 'by a maintainer');
    const result = await push(maintainerDir, 'HEAD:main');
    expect(result.code, result.stderr).toBe(0);
  });

  it('nobody force-pushes it, not even its owner', async () => {
    await ok(['reset', '-q', '--hard', 'HEAD~1'], maintainerDir);
    await commit(maintainerDir, 'rewritten history');
    refused(await push(maintainerDir, '--force', 'HEAD:main'), 'You are not allowed to force push code to a protected branch on this project.');
    const ownerDir = await clone(owner, 'owner');
    await ok(['reset', '-q', '--hard', 'HEAD~1'], ownerDir);
    await commit(ownerDir, 'rewritten by the owner');
    refused(await push(ownerDir, '--force', 'HEAD:main'), 'You are not allowed to force push code to a protected branch on this project.');
  });

  it('nobody deletes the default branch', async () => {
    refused(await push(maintainerDir, ':main'), 'The default branch of a project cannot be deleted.');
  });

  it('allow_force_push lets those who may push force-push, and nobody else', async () => {
    await kiln.api('PATCH', `/projects/${repo.id}/protected_branches/main`, { token: maintainer.token, body: { allow_force_push: true } });
    const forced = await push(maintainerDir, '--force', 'HEAD:main');
    expect(forced.code, forced.stderr).toBe(0);
    await ok(['fetch', '-q', 'origin'], devDir);
    await ok(['reset', '-q', '--hard', 'origin/main~1'], devDir);
    await commit(devDir, 'developer rewrite');
    refused(await push(devDir, '--force', 'HEAD:main'), 'You are not allowed to push code to protected branches on this project.');
  });

  it('a wildcard protects the branches it matches: creating and deleting them as GitLab answers', async () => {
    await kiln.api('POST', `/projects/${repo.id}/protected_branches`, { token: maintainer.token, body: { name: 'release/*' } });
    refused(await push(devDir, 'HEAD:release/1.0'), 'You are not allowed to create protected branches on this project.');
    await kiln.api('DELETE', `/projects/${repo.id}/protected_branches/${encodeURIComponent('release/*')}`, { token: maintainer.token });
    await kiln.api('POST', `/projects/${repo.id}/protected_branches`, { token: maintainer.token, body: { name: 'release/*', merge_access_level: 30 } });
    refused(await push(devDir, 'HEAD:release/1.0'), 'You can only create protected branches using the web interface and API.');
    const created = await push(maintainerDir, 'HEAD:release/1.0');
    expect(created.code, created.stderr).toBe(0);
    refused(await push(devDir, ':release/1.0'), 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.');
    refused(await push(maintainerDir, ':release/1.0'), 'You can only delete protected branches using the web interface.');
  });

  it('an administrator who is not a member pushes only where the level is 60', async () => {
    const adminDir = await clone(kiln.root, 'admin');
    await commit(adminDir, 'by an administrator');
    refused(await push(adminDir, 'HEAD:release/2.0'), 'You are not allowed to create protected branches on this project.');
    await kiln.api('DELETE', `/projects/${repo.id}/protected_branches/${encodeURIComponent('release/*')}`, { token: maintainer.token });
    await kiln.api('POST', `/projects/${repo.id}/protected_branches`, { token: maintainer.token, body: { name: 'release/*', push_access_level: 60 } });
    const pushed = await push(adminDir, 'HEAD:release/2.0');
    expect(pushed.code, pushed.stderr).toBe(0);
    // Maintainers still merge into it, so GitLab points them to the web interface instead.
    refused(await push(maintainerDir, 'HEAD:release/3.0'), 'You can only create protected branches using the web interface and API.');
  });

  it('once unprotected, a developer pushes and force-pushes the branch', async () => {
    expect((await kiln.api('DELETE', `/projects/${repo.id}/protected_branches/main`, { token: maintainer.token })).status).toBe(204);
    const pushed = await push(devDir, '--force', 'HEAD:main');
    expect(pushed.code, pushed.stderr).toBe(0);
    await ok(['reset', '-q', '--hard', 'HEAD~1'], devDir);
    await commit(devDir, 'developer force push');
    const forced = await push(devDir, '--force', 'HEAD:main');
    expect(forced.code, forced.stderr).toBe(0);
  });

  it('a push that does not create the default branch adds no rule', async () => {
    expect((await rules()).map((rule: any) => rule.name)).toEqual(['release/*']);
  });
});

describe('which branches a rule names (RefMatcher)', () => {
  it.each([
    ['main', 'main', true],
    ['main', 'main2', false],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/1.0/hotfix', true],
    ['release/*', 'release', false],
    ['*-stable', '1-0-stable', true],
    ['*-stable', 'stable', false],
    ['feature.*', 'featureX1', false],
    ['*', 'anything/at/all', true],
    ['v(1)', 'v(1)', true],
  ])('%s matches %s: %s', (pattern, branch, expected) => {
    expect(matchesBranch(pattern, branch)).toBe(expected);
  });
});

describe('the branch check (BranchCheck) on one update', () => {
  const ZERO = '0'.repeat(40);
  const A = 'a'.repeat(40);
  const B = 'b'.repeat(40);
  const rule = (name: string, push: number, merge: number, allowForcePush = false): ProtectedBranchRule => ({
    branch: { id: 1, project_id: 1, name, allow_force_push: allowForcePush ? 1 : 0, code_owner_approval_required: 0, created_at: 0, updated_at: 0 },
    push: [{ id: 1, protected_branch_id: 1, action: 'push', access_level: push }],
    merge: [{ id: 2, protected_branch_id: 1, action: 'merge', access_level: merge }],
  });
  const user = (admin = false) => ({ id: 7, username: 'u', name: 'U', state: 'active' as const, admin, otpRequired: false });
  const facts = (memberLevel: number, overrides: Partial<BranchCheckFacts> = {}): BranchCheckFacts => ({
    defaultBranch: 'main',
    emptyRepository: false,
    rules: [rule('main', 40, 40)],
    actor: { user: user(), memberLevel },
    canDeleteProtected: memberLevel >= 40,
    emptyRepositoryMessage: 'empty',
    isAncestor: async () => true,
    ...overrides,
  });
  const update = (ref: string, oldId: string, newId: string) => ({ ref: `refs/heads/${ref}`, oldId, newId });

  it.each<[string, ReturnType<typeof update>, BranchCheckFacts, string | null]>([
    ['an unprotected branch', update('topic', A, B), facts(30), null],
    ['a tag', { ref: 'refs/tags/v1', oldId: ZERO, newId: A }, facts(30, { emptyRepository: true }), null],
    ['a developer on a Maintainers branch', update('main', A, B), facts(30), BRANCH_MESSAGES.pushProtectedBranch],
    ['a maintainer on a Maintainers branch', update('main', A, B), facts(40), null],
    ['a Developers branch for a developer', update('main', A, B), facts(30, { rules: [rule('main', 30, 30)] }), null],
    ['a No one branch for an owner', update('main', A, B), facts(50, { rules: [rule('main', 0, 40)] }), BRANCH_MESSAGES.pushProtectedBranch],
    ['an administrator without membership on a Maintainers branch', update('main', A, B), facts(0, { actor: { user: user(true), memberLevel: 0 } }), BRANCH_MESSAGES.pushProtectedBranch],
    ['an administrator on an Administrators branch', update('main', A, B), facts(0, { rules: [rule('main', 60, 40)], actor: { user: user(true), memberLevel: 0 } }), null],
    ['a maintainer force-pushing', update('main', A, B), facts(40, { isAncestor: async () => false }), BRANCH_MESSAGES.forcePushProtectedBranch],
    ['a force push allowed by the rule', update('main', A, B), facts(40, { rules: [rule('main', 40, 40, true)], isAncestor: async () => false }), null],
    ['any rule allowing force push, among several', update('release/1', A, B), facts(40, { rules: [rule('release/*', 40, 40), rule('release/1', 40, 40, true)], isAncestor: async () => false }), null],
    ['deleting the default branch', update('main', A, ZERO), facts(50, { rules: [] }), BRANCH_MESSAGES.deleteDefaultBranch],
    ['a developer deleting a protected branch', update('release/1', A, ZERO), facts(30, { rules: [rule('release/*', 40, 40)] }), BRANCH_MESSAGES.nonMaintainerDeleteProtectedBranch],
    ['a maintainer deleting a protected branch', update('release/1', A, ZERO), facts(40, { rules: [rule('release/*', 40, 40)] }), BRANCH_MESSAGES.nonWebDeleteProtectedBranch],
    ['a developer creating a protected branch', update('release/1', ZERO, A), facts(30, { rules: [rule('release/*', 40, 40)] }), BRANCH_MESSAGES.createProtectedBranch],
    ['a developer who may merge creating it', update('release/1', ZERO, A), facts(30, { rules: [rule('release/*', 40, 30)] }), BRANCH_MESSAGES.nonWebCreateProtectedBranch],
    ['a 40-hex branch name', update('a'.repeat(40), ZERO, A), facts(40), BRANCH_MESSAGES.prohibitedHexBranchName],
    ['a developer in an empty repository', update('main', ZERO, A), facts(30, { rules: [], emptyRepository: true }), 'empty'],
    ['a developer in an empty repository, any branch', update('topic', ZERO, A), facts(30, { rules: [], emptyRepository: true }), 'empty'],
    ['a maintainer in an empty repository', update('main', ZERO, A), facts(40, { rules: [], emptyRepository: true }), null],
    ['a developer in an empty repository with a Developers rule', update('main', ZERO, A), facts(30, { rules: [rule('main', 30, 30)], emptyRepository: true }), null],
    ['a blocked maintainer', update('main', A, B), facts(40, { actor: { user: { ...user(), state: 'blocked' }, memberLevel: 40 } }), BRANCH_MESSAGES.pushProtectedBranch],
  ])('%s', async (_name, change, given, expected) => {
    expect(await refuseBranchUpdate(change, given)).toBe(expected);
  });

  it('asks whether a push is a fast-forward only for protected branches', async () => {
    let asked = 0;
    const counting = facts(40, { isAncestor: async () => (asked += 1) > 0 });
    await refuseBranchUpdate(update('topic', A, B), counting);
    expect(asked).toBe(0);
    await refuseBranchUpdate(update('main', A, B), counting);
    expect(asked).toBe(1);
  });
});

describe('the pre-receive hook run outside Kiln', () => {
  it('refuses the push: without Kiln on file descriptor 3 nothing gets through', async () => {
    const hooks = await hooksDirectory(join(work, 'hook-data'));
    const bare = join(work, 'outside.git');
    await ok(['init', '-q', '--bare', bare]);
    const dir = join(work, 'outside');
    await ok(['init', '-q', dir]);
    await ok(['commit', '-q', '--allow-empty', '-m', 'x'], dir);
    const result = await gitRun(['push', `--receive-pack=git -c core.hooksPath=${hooks} receive-pack`, bare, 'HEAD:main'], dir);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('(pre-receive hook declined)');
  });
});
