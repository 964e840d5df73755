// Protected tags: the REST API (doc/api/protected_tags.md), the tag check (GitLab's TagCheck) on
// one update, and its enforcement on a real `git push` and on the tags API, against an in-process
// Kiln listening on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { gitCommands, listenOnLoopback, twoShards } from '../helpers/git.js';
import { refuseTagUpdate, TAG_MESSAGES, type TagCheckFacts } from '../../src/repositories/protected-branches/tag-check.js';
import type { ProtectedTagRule } from '../../src/repositories/protected-branches/tag-finder.js';

let kiln: TestKiln;
let base: string;
let work: string;
const { run: gitRun, ok } = gitCommands(() => work);
let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let reporter: TestUser;
let stranger: TestUser;
let group: any;
let project: any;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-protected-tags-'));
  kiln = await testKiln({ storages: twoShards(work) });
  base = await listenOnLoopback(kiln.app);
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maintainer');
  developer = await kiln.createUser('developer');
  reporter = await kiln.createUser('reporter');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'team');
  project = await kiln.createProject(owner, 'tagged', { namespace_id: group.id });
  await kiln.addMember(owner, 'projects', project.id, maintainer, ACCESS.maintainer);
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
});
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

const path = (name?: string) => `/projects/${project.id}/protected_tags${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
const describeLevel = (level: number) => ({ 0: 'No one', 30: 'Developers + Maintainers', 40: 'Maintainers', 60: 'Administrators' })[level];
const entity = (name: string, level: number) => ({
  name,
  create_access_levels: [{ id: expect.any(Number), access_level: level, access_level_description: describeLevel(level), deploy_key_id: null, user_id: null, group_id: null }],
});

describe('POST /api/v4/projects/:id/protected_tags', () => {
  it('as a maintainer protects a tag with GitLab\'s default, Maintainers create it', async () => {
    const { status, body } = await kiln.api('POST', path(), { token: maintainer.token, body: { name: 'v1.0' } });
    expect([status, body]).toEqual([201, entity('v1.0', 40)]);
  });

  it('protects a wildcard with the level it is given', async () => {
    const { status, body } = await kiln.api('POST', path(), { token: maintainer.token, form: { name: 'release-*', create_access_level: '30' } });
    expect([status, body]).toEqual([201, entity('release-*', 30)]);
  });

  it('answers 422 with the model\'s messages for a name already protected and a blank one', async () => {
    const again = await kiln.api('POST', path(), { token: maintainer.token, body: { name: 'v1.0', create_access_level: 0 } });
    expect([again.status, again.body]).toEqual([422, { message: ['Name has already been taken'] }]);
    const blank = await kiln.api('POST', path(), { token: maintainer.token, body: { name: ' ' } });
    expect([blank.status, blank.body]).toEqual([422, { message: ["Name can't be blank"] }]);
  });

  it('answers 400 for an access level GitLab does not know and for a missing name', async () => {
    const bad = await kiln.api('POST', path(), { token: maintainer.token, body: { name: 'x', create_access_level: 20 } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'create_access_level does not have a valid value' }]);
    const missing = await kiln.api('POST', path(), { token: maintainer.token, body: {} });
    expect([missing.status, missing.body]).toEqual([400, { error: 'name is missing' }]);
  });

  it('answers 403 to a developer and 404 to a non-member', async () => {
    expect((await kiln.api('POST', path(), { token: developer.token, body: { name: 'd' } })).status).toBe(403);
    expect((await kiln.api('POST', path(), { token: stranger.token, body: { name: 'd' } })).status).toBe(404);
  });
});

describe('GET /api/v4/projects/:id/protected_tags', () => {
  it('lists the rules by id, paginated, to those who administer the project', async () => {
    const { status, body, headers } = await kiln.api('GET', path(), { token: maintainer.token });
    expect(status).toBe(200);
    expect(body).toEqual([entity('v1.0', 40), entity('release-*', 30)]);
    expect(headers['x-total']).toBe('2');
    const page = await kiln.api('GET', path(), { token: maintainer.token, query: { per_page: '1', page: '2' } });
    expect(page.body).toEqual([entity('release-*', 30)]);
  });

  it('reads one rule by its name, a wildcard URL-encoded, and 404 for an unknown one', async () => {
    expect((await kiln.api('GET', path('release-*'), { token: owner.token })).body).toEqual(entity('release-*', 30));
    const missing = await kiln.api('GET', path('nope'), { token: owner.token });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }]);
  });

  it('answers 403 to a developer and a reporter (authorize_admin_project), 404 to a non-member', async () => {
    expect((await kiln.api('GET', path(), { token: developer.token })).status).toBe(403);
    expect((await kiln.api('GET', path('v1.0'), { token: reporter.token })).status).toBe(403);
    expect((await kiln.api('GET', path(), { token: stranger.token })).status).toBe(404);
  });
});

describe('DELETE /api/v4/projects/:id/protected_tags/:name', () => {
  it('answers 403 to a developer, then unprotects for a maintainer: 204, then 404', async () => {
    await kiln.api('POST', path(), { token: maintainer.token, body: { name: 'gone' } });
    expect((await kiln.api('DELETE', path('gone'), { token: developer.token })).status).toBe(403);
    expect((await kiln.api('DELETE', path('gone'), { token: maintainer.token })).status).toBe(204);
    expect((await kiln.api('DELETE', path('gone'), { token: maintainer.token })).status).toBe(404);
  });
});

describe('the tag check (TagCheck) on one update', () => {
  const ZERO = '0'.repeat(40);
  const A = 'a'.repeat(40);
  const B = 'b'.repeat(40);
  const rule = (name: string, level: number): ProtectedTagRule => ({
    tag: { id: 1, project_id: 1, name, created_at: 0, updated_at: 0 },
    create: [{ id: 1, protected_tag_id: 1, access_level: level }],
  });
  const user = (admin = false) => ({ id: 7, username: 'u', name: 'U', state: 'active' as const, admin, otpRequired: false });
  const facts = (memberLevel: number, overrides: Partial<TagCheckFacts> = {}): TagCheckFacts => ({
    defaultBranch: 'main',
    rules: [rule('v*', 40)],
    actor: { user: user(), memberLevel },
    canAdminTag: memberLevel >= 30,
    isMaintainer: memberLevel >= 40,
    fromWeb: false,
    ...overrides,
  });
  const update = (tag: string, oldId: string, newId: string) => ({ ref: `refs/tags/${tag}`, oldId, newId });

  it.each<[string, ReturnType<typeof update>, TagCheckFacts, string | null]>([
    ['a branch', { ref: 'refs/heads/v1', oldId: ZERO, newId: A }, facts(30), null],
    ['an unprotected tag created by a developer', update('beta', ZERO, A), facts(30), null],
    ['an unprotected tag moved by a developer', update('beta', A, B), facts(30), null],
    ['an existing tag moved by a reporter', update('beta', A, B), facts(20), TAG_MESSAGES.changeExistingTags],
    ['a tag named as the default branch', update('main', ZERO, A), facts(40, { rules: [] }), TAG_MESSAGES.defaultBranchCollision],
    ['a tag named refs/tags/…', update('refs/tags/x', ZERO, A), facts(40, { rules: [] }), TAG_MESSAGES.prohibitedTagName],
    ['a tag that starts like a commit id', update(`${'c'.repeat(40)}-x`, ZERO, A), facts(40, { rules: [] }), TAG_MESSAGES.prohibitedShaTagName],
    ['a protected tag created by a developer', update('v1', ZERO, A), facts(30), TAG_MESSAGES.createProtectedTag],
    ['a protected tag created by a maintainer', update('v1', ZERO, A), facts(40), null],
    ['a Developers rule for a developer', update('v1', ZERO, A), facts(30, { rules: [rule('v*', 30)] }), null],
    ['a No one rule for the owner', update('v1', ZERO, A), facts(50, { rules: [rule('v*', 0)] }), TAG_MESSAGES.createProtectedTag],
    ['a protected tag moved, even by the owner', update('v1', A, B), facts(50), TAG_MESSAGES.updateProtectedTag],
    ['a protected tag deleted by a developer', update('v1', A, ZERO), facts(30, { rules: [rule('v*', 30)] }), TAG_MESSAGES.deleteProtectedTag],
    ['a protected tag deleted by a maintainer with git', update('v1', A, ZERO), facts(40), TAG_MESSAGES.deleteProtectedTagNonWeb],
    ['a protected tag deleted by a maintainer from the web', update('v1', A, ZERO), facts(40, { fromWeb: true }), null],
    ['a No one tag deleted by the owner from the web', update('v1', A, ZERO), facts(50, { fromWeb: true, rules: [rule('v*', 0)] }), TAG_MESSAGES.createProtectedTag],
    ['a non-member administrator on an Administrators rule', update('v1', ZERO, A), facts(0, { rules: [rule('v*', 60)], actor: { user: user(true), memberLevel: 0 }, canAdminTag: true }), null],
    ['a deploy key on a protected tag', update('v1', ZERO, A), facts(0, { actor: { user: null, memberLevel: 0 }, canAdminTag: null }), TAG_MESSAGES.createProtectedTag],
  ])('%s', (_name, change, given, expected) => {
    expect(refuseTagUpdate(change, given)).toBe(expected);
  });
});

describe('protected tags enforced on git push and on the tags API', () => {
  let repo: any;
  const remote = (user: TestUser) => `${base.replace('http://', `http://${user.username}:${user.token}@`)}/team/releases.git`;
  const refused = (result: { code: number; stderr: string }, message: string) => {
    expect(result.code, result.stderr).not.toBe(0);
    expect(result.stderr).toContain(`remote: ${message}`);
    expect(result.stderr).toContain('(pre-receive hook declined)');
  };
  const tagsApi = (suffix = '') => `/projects/${repo.id}/repository/tags${suffix}`;
  let devDir: string;
  let maintainerDir: string;

  beforeAll(async () => {
    repo = (await kiln.api('POST', '/projects', { token: owner.token, body: { name: 'releases', namespace_id: group.id, initialize_with_readme: true } })).body;
    await kiln.addMember(owner, 'projects', repo.id, maintainer, ACCESS.maintainer);
    await kiln.addMember(owner, 'projects', repo.id, developer, ACCESS.developer);
    devDir = join(work, 'dev');
    maintainerDir = join(work, 'maintainer');
    await ok(['clone', '-q', remote(developer), devDir]);
    await ok(['clone', '-q', remote(maintainer), maintainerDir]);
    writeFileSync(join(devDir, 'a.txt'), 'a\n');
    await ok(['add', '.'], devDir);
    await ok(['commit', '-q', '-m', 'a'], devDir);
    await ok(['push', '-q', 'origin', 'HEAD:topic'], devDir);
    await kiln.api('POST', `/projects/${repo.id}/protected_tags`, { token: maintainer.token, body: { name: 'v*' } });
  });

  it('a developer may not push a protected tag; an unprotected one goes through', async () => {
    refused(await gitRun(['push', 'origin', 'HEAD:refs/tags/v1.0'], devDir), TAG_MESSAGES.createProtectedTag);
    const beta = await gitRun(['push', 'origin', 'HEAD:refs/tags/beta'], devDir);
    expect(beta.code, beta.stderr).toBe(0);
  });

  it('a maintainer pushes it; nobody moves it, and git cannot delete it', async () => {
    const pushed = await gitRun(['push', 'origin', 'HEAD:refs/tags/v1.0'], maintainerDir);
    expect(pushed.code, pushed.stderr).toBe(0);
    await ok(['fetch', '-q', 'origin', 'topic'], maintainerDir);
    refused(await gitRun(['push', '--force', 'origin', 'FETCH_HEAD:refs/tags/v1.0'], maintainerDir), TAG_MESSAGES.updateProtectedTag);
    refused(await gitRun(['push', 'origin', ':refs/tags/v1.0'], maintainerDir), TAG_MESSAGES.deleteProtectedTagNonWeb);
    refused(await gitRun(['push', 'origin', ':refs/tags/v1.0'], devDir), TAG_MESSAGES.deleteProtectedTag);
  });

  it('the tags API answers a developer with the same refusal, and lets a maintainer delete it', async () => {
    const created = await kiln.api('POST', tagsApi(), { token: developer.token, body: { tag_name: 'v2.0', ref: 'main' } });
    expect([created.status, created.body]).toEqual([400, { message: TAG_MESSAGES.createProtectedTag }]);
    const deleted = await kiln.api('DELETE', tagsApi('/v1.0'), { token: developer.token });
    expect([deleted.status, deleted.body]).toEqual([400, { message: TAG_MESSAGES.deleteProtectedTag }]);
    expect((await kiln.api('DELETE', tagsApi('/v1.0'), { token: maintainer.token })).status).toBe(204);
    expect((await gitRun(['ls-remote', '--exit-code', 'origin', 'refs/tags/v1.0'], devDir)).code).toBe(2);
  });

  it('once unprotected, a developer pushes the tag', async () => {
    expect((await kiln.api('DELETE', `/projects/${repo.id}/protected_tags/${encodeURIComponent('v*')}`, { token: maintainer.token })).status).toBe(204);
    const pushed = await gitRun(['push', 'origin', 'HEAD:refs/tags/v3.0'], devDir);
    expect(pushed.code, pushed.stderr).toBe(0);
  });
});
