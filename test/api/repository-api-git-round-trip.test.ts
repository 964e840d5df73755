// The repository API and git over HTTP on one repository: files committed through the API are
// cloned by a real `git`, changed, pushed, and read back through files, tree, commits and compare.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { commit, create, repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let world: RepositoryWorld;
let base: string;
let work: string;
const { run: gitRun, ok } = gitCommands(() => work);
let apiCommit: any;

const remote = (user: { username: string; token: string }) => `${base.replace('http://', `http://${user.username}:${user.token}@`)}/${world.project.path_with_namespace}.git`;
const files = (path: string) => `/projects/${world.project.id}/repository/files/${encodeURIComponent(path)}`;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-round-trip-'));
  kiln = await testKiln();
  base = await listenOnLoopback(kiln.app);
  world = await repositoryWorld(kiln);
  const created = await kiln.api('POST', files('README.md'), { token: world.owner.token, body: { branch: 'main', content: '# App\n', commit_message: 'Add README' } });
  expect(created.status).toBe(201);
  apiCommit = await commit(kiln, world.owner.token, world.project.id, {
    branch: 'main',
    commit_message: 'Add the tool',
    actions: [create('src/main.ts', 'console.log(1);\n'), { action: 'create', file_path: 'bin/tool', content: '#!/bin/sh\n' }, { action: 'chmod', file_path: 'bin/tool', execute_filemode: true }],
  });
});
afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a repository written through the API', () => {
  it('is cloned by git with the API’s commits, contents and modes', async () => {
    await ok(['clone', '-q', remote(world.developer), 'clone']);
    const dir = join(work, 'clone');
    expect((await ok(['rev-parse', 'HEAD'], dir)).trim()).toBe(apiCommit.id);
    expect((await ok(['log', '--format=%s', 'HEAD'], dir)).trim().split('\n')).toEqual(['Add the tool', 'Add README']);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# App\n');
    expect(statSync(join(dir, 'bin/tool')).mode & 0o111).not.toBe(0);
    expect((await ok(['fsck', '--strict'], dir))).toBe('');
  });

  it('takes a push of a change, which the API then reads back through files, tree, commits and compare', async () => {
    const dir = join(work, 'clone');
    await ok(['checkout', '-q', '-b', 'feature/edit'], dir);
    writeFileSync(join(dir, 'src/main.ts'), 'console.log(2);\n');
    writeFileSync(join(dir, 'NOTES.md'), 'notes\n');
    await ok(['add', '.'], dir);
    await ok(['commit', '-q', '-m', 'Edit from git'], dir);
    const pushed = (await ok(['rev-parse', 'HEAD'], dir)).trim();
    const push = await gitRun(['push', '-q', 'origin', 'feature/edit'], dir);
    expect(push.code, push.stderr).toBe(0);

    const file = await kiln.api('GET', files('src/main.ts'), { token: world.developer.token, query: { ref: 'feature/edit' } });
    expect(Buffer.from(file.body.content, 'base64').toString()).toBe('console.log(2);\n');
    expect(file.body.last_commit_id).toBe(pushed);
    const tree = await kiln.api('GET', `/projects/${world.project.id}/repository/tree`, { token: world.developer.token, query: { ref: 'feature/edit' } });
    expect(tree.body.map((entry: any) => entry.path)).toEqual(['NOTES.md', 'README.md', 'bin', 'src']);
    const log = await kiln.api('GET', `/projects/${world.project.id}/repository/commits`, { token: world.developer.token, query: { ref_name: 'feature/edit' } });
    expect(log.body.map((item: any) => item.title)).toEqual(['Edit from git', 'Add the tool', 'Add README']);
    expect(log.body[0]).toMatchObject({ id: pushed, author_name: 'Test', author_email: 'test@example.com' });
    const compare = await kiln.api('GET', `/projects/${world.project.id}/repository/compare`, { token: world.developer.token, query: { from: 'main', to: 'feature/edit' } });
    expect(compare.body.commits.map((item: any) => item.id)).toEqual([pushed]);
    expect(compare.body.diffs.map((diff: any) => [diff.new_path, diff.new_file])).toEqual([['NOTES.md', true], ['src/main.ts', false]]);
    expect(compare.body.diffs[1].diff).toBe('@@ -1 +1 @@\n-console.log(1);\n+console.log(2);\n');
  });

  it('continues from the pushed commit when the API commits to that branch, and git fetches it', async () => {
    const dir = join(work, 'clone');
    const pushed = (await ok(['rev-parse', 'HEAD'], dir)).trim();
    const next = await commit(kiln, world.developer.token, world.project.id, { branch: 'feature/edit', actions: [{ action: 'update', file_path: 'NOTES.md', content: 'more notes\n' }] });
    expect(next.parent_ids).toEqual([pushed]);
    await ok(['pull', '-q', '--ff-only', 'origin', 'feature/edit'], dir);
    expect((await ok(['rev-parse', 'HEAD'], dir)).trim()).toBe(next.id);
    expect(readFileSync(join(dir, 'NOTES.md'), 'utf8')).toBe('more notes\n');
  });

  it('holds one protected branch rule for git and the API alike', async () => {
    const dir = join(work, 'clone');
    await ok(['checkout', '-q', 'main'], dir);
    writeFileSync(join(dir, 'README.md'), '# App, by a developer\n');
    await ok(['commit', '-q', '-am', 'Developer change'], dir);
    const push = await gitRun(['push', 'origin', 'main'], dir);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('You are not allowed to push code to protected branches on this project.');
    const api = await kiln.api('PUT', files('README.md'), { token: world.developer.token, body: { branch: 'main', content: 'x', commit_message: 'm' } });
    expect(api).toMatchObject({ status: 400, body: { message: 'You are not allowed to push into this branch' } });
    await kiln.api('DELETE', `/projects/${world.project.id}/protected_branches/main`, { token: world.owner.token });
    await kiln.api('POST', `/projects/${world.project.id}/protected_branches`, { token: world.owner.token, body: { name: 'main', push_access_level: 30 } });
    const allowed = await gitRun(['push', 'origin', 'main'], dir);
    expect(allowed.code, allowed.stderr).toBe(0);
    const after = await kiln.api('PUT', files('README.md'), { token: world.developer.token, body: { branch: 'main', content: '# App, through the API\n', commit_message: 'API change' } });
    expect(after.status).toBe(200);
  });

  it('answers a push that raced an API commit with git’s own refusal, losing neither', async () => {
    const dir = join(work, 'clone');
    await ok(['fetch', '-q', 'origin'], dir);
    await ok(['reset', '-q', '--hard', 'origin/main'], dir);
    const apiSide = await commit(kiln, world.developer.token, world.project.id, { branch: 'main', actions: [create('from-api.txt')] });
    writeFileSync(join(dir, 'from-git.txt'), 'git\n');
    await ok(['add', '.'], dir);
    await ok(['commit', '-q', '-m', 'From git'], dir);
    const stale = await gitRun(['push', 'origin', 'main'], dir);
    expect(stale.code).not.toBe(0);
    expect(stale.stderr).toMatch(/rejected|fetch first/);
    await ok(['pull', '-q', '--rebase', 'origin', 'main'], dir);
    const push = await gitRun(['push', '-q', 'origin', 'main'], dir);
    expect(push.code, push.stderr).toBe(0);
    const log = await kiln.api('GET', `/projects/${world.project.id}/repository/commits`, { token: world.developer.token, query: { per_page: 3 } });
    expect(log.body.map((item: any) => item.title).slice(0, 2)).toEqual(['From git', apiSide.title]);
  });
});
