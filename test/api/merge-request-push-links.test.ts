// The merge request links `git push` prints (GitLab's post-receive output, which editors and update
// bots read): a real git over HTTP and over SSH against Kiln on loopback, asserted on git's stderr.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { gitCommands, listenOnLoopback, twoShards } from '../helpers/git.js';
import { sshClient, sshKeygen, type SshKeyPair } from '../helpers/ssh.js';

let kiln: TestKiln;
let work: string;
let base: string;
let port: number;
let dir: string;
let owner: TestUser;
let developer: TestUser;
let developerKey: SshKeyPair;
let project: any;
const { run: gitRun, ok } = gitCommands(() => work);
const ssh = sshClient(() => work, () => port);

let counter = 0;
async function commit(message = 'change'): Promise<void> {
  counter += 1;
  writeFileSync(join(dir, `file-${counter}.txt`), `${counter}\n`);
  await ok(['add', '.'], dir);
  await ok(['commit', '-q', '-m', message], dir);
}
/** git pads each `remote:` line with spaces (to overwrite progress output): compare without them. */
const trimmed = <T extends { stderr: string }>(result: T): T => ({ ...result, stderr: result.stderr.replace(/[ \t]+$/gm, '') });
const push = async (...args: string[]) => trimmed(await gitRun(['push', 'origin', ...args], dir));
const web = () => `${kiln.config.baseUrl}/team/app`;
const createLink = (branch: string) => `${web()}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${encodeURIComponent(branch)}`;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-push-links-'));
  kiln = await testKiln({ storages: twoShards(work) });
  base = await listenOnLoopback(kiln.app);
  port = (await kiln.listenSsh({ port: 0 })).port;
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('developer');
  developerKey = await sshKeygen(work, 'developer', 'ed25519');
  await kiln.apiAs(developer, 'POST', '/user/keys', { title: 'laptop', key: developerKey.publicKey });
  const group = await kiln.createGroup(owner, 'team');
  project = await kiln.createProject(owner, 'app', { namespace_id: group.id });
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.maintainer);
  dir = join(work, 'clone');
  await ok(['clone', '-q', `${base.replace('http://', `http://developer:${developer.token}@`)}/team/app.git`, dir]);
  await commit('first');
  const first = await push('HEAD:main');
  expect(first.code, first.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

describe('git push over HTTP', () => {
  it('prints nothing about merge requests for the default branch', async () => {
    await commit();
    const result = await push('HEAD:main');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('merge request');
  });

  it('prints the link that creates a merge request for a new branch, between blank remote lines', async () => {
    await commit();
    const result = await push('HEAD:feature/login');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(['remote:', 'remote: To create a merge request for feature/login, visit:', `remote:   ${createLink('feature/login')}`, 'remote:'].join('\n'));
  });

  it('prints the open merge request instead once there is one, and one block per pushed branch', async () => {
    const opened = await kiln.api('POST', `/projects/${project.id}/merge_requests`, { token: developer.token, body: { source_branch: 'feature/login', target_branch: 'main', title: 'Login' } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    await commit();
    const result = await push('HEAD:feature/login', 'HEAD:other');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`remote: View merge request for feature/login:\nremote:   ${web()}/-/merge_requests/${opened.body.iid}\n`);
    expect(result.stderr).toContain(`remote: To create a merge request for other, visit:\nremote:   ${createLink('other')}\n`);
    expect(result.stderr).not.toContain('create a merge request for feature/login');
  });

  it('prints nothing for a deleted branch, nor when the project turned the links off', async () => {
    const deleted = await push(':other');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).not.toContain('merge request');
    const off = await kiln.apiAs(owner, 'PUT', `/projects/${project.id}`, { printing_merge_request_link_enabled: false });
    expect(off.printing_merge_request_link_enabled).toBe(false);
    await commit();
    const result = await push('HEAD:quiet');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('merge request');
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}`, { printing_merge_request_link_enabled: true });
  });

  it('a refused push prints no link (the post-receive hook never runs)', async () => {
    await kiln.apiAs(owner, 'POST', `/projects/${project.id}/protected_branches`, { name: 'locked', push_access_level: 0 });
    await commit();
    const result = await push('HEAD:locked');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('(pre-receive hook declined)');
    expect(result.stderr).not.toContain('merge request');
  });
});

describe('git push over SSH', () => {
  it('prints the same lines', async () => {
    await commit();
    const result = trimmed(await ssh.git(developerKey, ['push', `ssh://git@127.0.0.1:${port}/team/app.git`, 'HEAD:over-ssh'], dir));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`remote: To create a merge request for over-ssh, visit:\nremote:   ${createLink('over-ssh')}\n`);
  });
});
