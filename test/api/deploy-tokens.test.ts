// Deploy tokens: GitLab's API for projects, groups and administrators, and their use by the real git
// over HTTP with the token's user name — read_repository clones, write_repository pushes, a group's
// token reaches the group's projects, and revoked, expired or deleted tokens are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { listenOnLoopback, twoShards } from '../helpers/git.js';

let kiln: TestKiln;
let work: string;
let base: string;
let alice: TestUser;
let bob: TestUser;
let group: any;
let project: any;

function git(args: string[], cwd = work): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], {
      cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
    }, (error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }));
  });
}

const remote = (username: string, token: string, path: string) => `${base.replace('http://', `http://${encodeURIComponent(username)}:${token}@`)}/${path}.git`;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-deploy-tokens-'));
  kiln = await testKiln({ storages: twoShards(work) });
  base = await listenOnLoopback(kiln.app);
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  group = await kiln.createGroup(alice, 'team');
  project = await kiln.createProject(alice, 'app', { namespace_id: group.id, visibility: 'private' });
  await kiln.createProject(alice, 'elsewhere', { visibility: 'private' });
  await kiln.addMember(alice, 'projects', project.id, bob, ACCESS.developer);
  const seed = join(work, 'seed');
  await git(['init', '-q', seed]);
  writeFileSync(join(seed, 'README.md'), 'hello\n');
  await git(['add', '.'], seed);
  await git(['commit', '-q', '-m', 'first'], seed);
  const push = await git(['push', '-q', remote('alice', alice.token, 'team/app'), 'main'], seed);
  expect(push.code, push.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

describe('/projects/:id/deploy_tokens', () => {
  it('creates a token shown once, named gitlab+deploy-token-<id> by default, stored as its digest', async () => {
    const created = await kiln.api('POST', `/projects/${project.id}/deploy_tokens`, { token: alice.token, body: { name: 'ci', scopes: ['read_repository'] } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'ci', username: `gitlab+deploy-token-${created.body.id}`, expires_at: null, scopes: ['read_repository'], revoked: false, expired: false, token: expect.stringMatching(/^gldt-/) });
    const stored = await kiln.deps.db.selectFrom('deploy_tokens').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.body.token);
    const listed = await kiln.apiAs(alice, 'GET', `/projects/${project.id}/deploy_tokens`);
    const { token: _shownOnce, ...shown } = created.body;
    expect(listed).toEqual([shown]);
    expect((await kiln.apiAs(alice, 'GET', `/projects/${project.id}/deploy_tokens/${created.body.id}`)).name).toBe('ci');
  });

  it('takes a user name and an expiry, and refuses unknown scopes, bad names and non-maintainers', async () => {
    const named = await kiln.apiAs(alice, 'POST', `/projects/${project.id}/deploy_tokens`, { name: 'pusher', scopes: ['read_repository', 'write_repository'], username: 'release-bot', expires_at: '2030-01-01T00:00:00Z' });
    expect(named).toMatchObject({ username: 'release-bot', expires_at: '2030-01-01T00:00:00.000Z' });
    const scope = await kiln.api('POST', `/projects/${project.id}/deploy_tokens`, { token: alice.token, body: { name: 'x', scopes: ['api'] } });
    expect(scope.status).toBe(400);
    expect(scope.body.error).toBe('scopes does not have a valid value');
    const name = await kiln.api('POST', `/projects/${project.id}/deploy_tokens`, { token: alice.token, body: { name: 'x', scopes: ['read_repository'], username: 'a b' } });
    expect(name.status).toBe(400);
    expect(name.body.message.username).toBeDefined();
    expect((await kiln.api('GET', `/projects/${project.id}/deploy_tokens`, { token: bob.token })).status).toBe(403);
  });

  it('administrators list every token, or the active ones', async () => {
    expect((await kiln.api('GET', '/deploy_tokens', { token: alice.token })).status).toBe(403);
    expect((await kiln.apiAs(kiln.root, 'GET', '/deploy_tokens')).map((token: any) => token.name)).toEqual(['ci', 'pusher']);
  });
});

describe('deploy tokens over git HTTP', () => {
  it('read_repository clones its project and cannot push; the wrong user name is refused', async () => {
    const token = await kiln.apiAs(alice, 'POST', `/projects/${project.id}/deploy_tokens`, { name: 'reader', scopes: ['read_repository'] });
    const dir = join(work, 'reader');
    const clone = await git(['clone', '-q', remote(token.username, token.token, 'team/app'), dir]);
    expect(clone.code, clone.stderr).toBe(0);
    writeFileSync(join(dir, 'x.txt'), 'x\n');
    await git(['add', '.'], dir);
    await git(['commit', '-q', '-m', 'x'], dir);
    const push = await git(['push', 'origin', 'HEAD:feature'], dir);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('You are not allowed to upload code.');
    const wrongUser = await git(['ls-remote', remote('someone', token.token, 'team/app')]);
    expect(wrongUser.code).not.toBe(0);
    const other = await git(['ls-remote', remote(token.username, token.token, 'alice/elsewhere')]);
    expect(other.code).not.toBe(0);
  });

  it('write_repository pushes a branch, and not to the protected default branch', async () => {
    const token = await kiln.apiAs(alice, 'POST', `/projects/${project.id}/deploy_tokens`, { name: 'writer', scopes: ['read_repository', 'write_repository'] });
    const dir = join(work, 'writer');
    expect((await git(['clone', '-q', remote(token.username, token.token, 'team/app'), dir])).code).toBe(0);
    writeFileSync(join(dir, 'y.txt'), 'y\n');
    await git(['add', '.'], dir);
    await git(['commit', '-q', '-m', 'y'], dir);
    const branch = await git(['push', '-q', 'origin', 'HEAD:release'], dir);
    expect(branch.code, branch.stderr).toBe(0);
    const main = await git(['push', 'origin', 'HEAD:main'], dir);
    expect(main.code).not.toBe(0);
    expect(main.stderr).toContain('You are not allowed to push code to protected branches on this project.');
  });

  it('a group token reaches the group\'s projects only, and stops once deleted', async () => {
    const token = await kiln.apiAs(alice, 'POST', `/groups/${group.id}/deploy_tokens`, { name: 'group reader', scopes: ['read_repository'] });
    expect((await kiln.apiAs(alice, 'GET', `/groups/${group.id}/deploy_tokens`)).map((row: any) => row.name)).toEqual(['group reader']);
    expect((await git(['ls-remote', remote(token.username, token.token, 'team/app')])).code).toBe(0);
    expect((await git(['ls-remote', remote(token.username, token.token, 'alice/elsewhere')])).code).not.toBe(0);
    expect((await kiln.api('DELETE', `/groups/${group.id}/deploy_tokens/${token.id}`, { token: alice.token })).status).toBe(204);
    expect((await git(['ls-remote', remote(token.username, token.token, 'team/app')])).code).not.toBe(0);
    expect((await kiln.api('DELETE', `/groups/${group.id}/deploy_tokens/${token.id}`, { token: alice.token })).status).toBe(404);
  });

  it('an expired or revoked token is refused', async () => {
    const token = await kiln.apiAs(alice, 'POST', `/projects/${project.id}/deploy_tokens`, { name: 'short', scopes: ['read_repository'], expires_at: new Date(kiln.clock.now() + 3_600_000).toISOString() });
    expect((await git(['ls-remote', remote(token.username, token.token, 'team/app')])).code).toBe(0);
    await kiln.deps.db.updateTable('deploy_tokens').set({ expires_at: kiln.clock.now() - 1 }).where('id', '=', token.id).execute();
    expect((await git(['ls-remote', remote(token.username, token.token, 'team/app')])).code).not.toBe(0);
    expect((await kiln.apiAs(kiln.root, 'GET', '/deploy_tokens?active=true')).map((row: any) => row.name)).not.toContain('short');
    await kiln.deps.db.updateTable('deploy_tokens').set({ expires_at: null, revoked: 1 }).where('id', '=', token.id).execute();
    expect((await git(['ls-remote', remote(token.username, token.token, 'team/app')])).code).not.toBe(0);
  });

  it('accepts an expiry date in the past, as GitLab does (no validation on it): the token is born expired', async () => {
    // python-gitlab's functional suite creates its deploy tokens with expires_at 2021-09-09 and 2022-01-01.
    const token = await kiln.apiAs(alice, 'POST', `/projects/${project.id}/deploy_tokens`, { name: 'stale', scopes: ['read_repository'], expires_at: '2022-01-01' });
    expect(token).toMatchObject({ name: 'stale', expires_at: '2022-01-01T00:00:00.000Z', expired: true });
    expect((await git(['ls-remote', remote(token.username, token.token, 'team/app')])).code).not.toBe(0);
  });
});
