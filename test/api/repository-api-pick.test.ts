// Cherry-pick and revert (doc/api/commits.md), and the administrators' storage and snapshot views of a
// project's repository (doc/api/projects.md).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { commit, create, repositoryWorld, update, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let world: RepositoryWorld;
let base: any;
let feature: any;
let work: string;

const url = (sha: string, kind: 'cherry_pick' | 'revert') => `/projects/${world.project.id}/repository/commits/${sha}/${kind}`;
const head = async (branch: string) => (await kiln.api('GET', `/projects/${world.project.id}/repository/branches/${branch}`, { token: world.owner.token })).body.commit;
const file = async (path: string, ref: string) => {
  const response = await kiln.request('GET', `/api/v4/projects/${world.project.id}/repository/files/${encodeURIComponent(path)}/raw?ref=${ref}`, { token: world.owner.token });
  return response.statusCode === 200 ? response.body : null;
};

beforeAll(async () => {
  kiln = await testKiln();
  world = await repositoryWorld(kiln);
  work = mkdtempSync(join(tmpdir(), 'kiln-pick-'));
  base = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'Base', actions: [create('a.txt', 'one\ntwo\nthree\n')] });
  feature = await commit(kiln, world.owner.token, world.project.id, { branch: 'feature', start_branch: 'main', commit_message: 'Add b\n\nWith a body.', author_name: 'Bea', author_email: 'bea@example.com', actions: [create('b.txt', 'b\n')] });
});
afterAll(async () => {
  await kiln?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('POST /projects/:id/repository/commits/:sha/cherry_pick', () => {
  it('answers a dry run without moving the branch', async () => {
    const before = await head('main');
    const response = await kiln.api('POST', url(feature.id, 'cherry_pick'), { token: world.maintainer.token, body: { branch: 'main', dry_run: true } });
    expect(response).toMatchObject({ status: 200, body: { dry_run: 'success' } });
    expect((await head('main')).id).toBe(before.id);
  });

  it('applies the commit onto the branch with GitLab’s message, keeping its author', async () => {
    const response = await kiln.api('POST', url(feature.id, 'cherry_pick'), { token: world.maintainer.token, body: { branch: 'main' } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({
      parent_ids: [base.id],
      title: 'Add b',
      message: `Add b\n\nWith a body.\n\n(cherry picked from commit ${feature.id})`,
      author_name: 'Bea',
      author_email: 'bea@example.com',
      committer_email: `${world.maintainer.username}@example.com`,
    });
    expect((await head('main')).id).toBe(response.body.id);
    expect(await file('b.txt', 'main')).toBe('b\n');
  });

  it('refuses a change the branch already has with error_code empty', async () => {
    const response = await kiln.api('POST', url(feature.id, 'cherry_pick'), { token: world.maintainer.token, body: { branch: 'main' } });
    expect(response).toMatchObject({ status: 400, body: { error_code: 'empty' } });
    expect(response.body.message).toMatch(/^Sorry, we cannot cherry-pick this commit automatically\./);
  });

  it('refuses a conflicting change with error_code conflict, and takes a message of its own', async () => {
    const left = await commit(kiln, world.owner.token, world.project.id, { branch: 'left', start_branch: 'main', commit_message: 'Left', actions: [update('a.txt', 'one\nLEFT\nthree\n')] });
    await commit(kiln, world.owner.token, world.project.id, { branch: 'right', start_branch: 'main', commit_message: 'Right', actions: [update('a.txt', 'one\nRIGHT\nthree\n')] });
    const conflict = await kiln.api('POST', url(left.id, 'cherry_pick'), { token: world.maintainer.token, body: { branch: 'right', dry_run: true } });
    expect(conflict).toMatchObject({ status: 400, body: { error_code: 'conflict' } });
    const picked = await kiln.api('POST', url(left.id, 'cherry_pick'), { token: world.maintainer.token, body: { branch: 'main', message: 'Take left' } });
    expect(picked).toMatchObject({ status: 201, body: { message: 'Take left' } });
  });

  it('answers 404 for an unknown branch or commit, 400 without a branch', async () => {
    expect(await kiln.api('POST', url(feature.id, 'cherry_pick'), { token: world.maintainer.token, body: { branch: 'nope' } })).toMatchObject({ status: 404, body: { message: '404 Branch Not Found' } });
    expect((await kiln.api('POST', url('0'.repeat(40), 'cherry_pick'), { token: world.maintainer.token, body: { branch: 'main' } })).status).toBe(404);
    const missing = await kiln.api('POST', url(feature.id, 'cherry_pick'), { token: world.maintainer.token, body: {} });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('branch');
  });

  it('needs push access: a Reporter gets 403, an outsider 404, a Developer the protected branch’s refusal', async () => {
    expect((await kiln.api('POST', url(feature.id, 'cherry_pick'), { token: world.reporter.token, body: { branch: 'main' } })).status).toBe(403);
    expect((await kiln.api('POST', url(feature.id, 'cherry_pick'), { token: world.stranger.token, body: { branch: 'main' } })).status).toBe(404);
    const developer = await kiln.api('POST', url(feature.id, 'cherry_pick'), { token: world.developer.token, body: { branch: 'main' } });
    expect(developer).toMatchObject({ status: 400, body: { message: 'You are not allowed to push into this branch' } });
  });
});

describe('POST /projects/:id/repository/commits/:sha/revert', () => {
  it('reverts a commit with GitLab’s message, then refuses a second revert', async () => {
    const target = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'Add c', actions: [create('c.txt', 'c\n')] });
    const response = await kiln.api('POST', url(target.id, 'revert'), { token: world.maintainer.token, body: { branch: 'main' } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ parent_ids: [target.id], message: `Revert "Add c"\n\nThis reverts commit ${target.id}`, author_email: `${world.maintainer.username}@example.com` });
    expect(await file('c.txt', 'main')).toBeNull();
    const again = await kiln.api('POST', url(target.id, 'revert'), { token: world.maintainer.token, body: { branch: 'main' } });
    expect(again).toMatchObject({ status: 400, body: { error_code: 'empty' } });
    expect(again.body.message).toMatch(/^Sorry, we cannot revert this commit automatically\./);
  });

  it('reverts a root commit to an empty tree', async () => {
    const response = await kiln.api('POST', url(base.id, 'revert'), { token: world.maintainer.token, body: { branch: 'feature', dry_run: true } });
    expect(response).toMatchObject({ status: 200, body: { dry_run: 'success' } });
  });
});

describe('GET /projects/:id/storage and /projects/:id/snapshot', () => {
  it('tells an administrator where the repository is', async () => {
    const response = await kiln.api('GET', `/projects/${world.project.id}/storage`, { token: kiln.root.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ project_id: world.project.id, disk_path: expect.stringMatching(/^@hashed\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/), created_at: world.project.created_at, repository_storage: 'default' });
  });

  it('serves an administrator a tar of the bare repository that git can read', async () => {
    const response = await kiln.request('GET', `/api/v4/projects/${world.project.id}/snapshot`, { token: kiln.root.token });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-tar');
    const tar = join(work, 'snapshot.tar');
    writeFileSync(tar, response.rawPayload);
    const restored = join(work, 'restored.git');
    execFileSync('mkdir', ['-p', restored]);
    execFileSync('tar', ['-x', '-f', tar, '-C', restored]);
    expect(execFileSync('git', ['--git-dir', restored, 'rev-parse', 'refs/heads/feature']).toString().trim()).toBe(feature.id);
    expect((await kiln.request('GET', `/api/v4/projects/${world.project.id}/snapshot?wiki=true`, { token: kiln.root.token })).statusCode).toBe(404);
  });

  it('refuses everyone else with 403, even the project’s owner', async () => {
    for (const path of ['storage', 'snapshot']) {
      expect((await kiln.api('GET', `/projects/${world.project.id}/${path}`, { token: world.owner.token })).status).toBe(403);
      expect((await kiln.api('GET', `/projects/${world.project.id}/${path}`, {})).status).toBe(401);
    }
  });
});

describe('the commit page’s Revert and Cherry-pick', () => {
  it('offers both to whoever may push, and a revert lands on the chosen branch with GitLab’s notice', async () => {
    const target = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'Add d', actions: [create('d.txt', 'd\n')] });
    const web = new WebSession(kiln);
    await web.signIn(world.maintainer.username, world.maintainer.password);
    const page = `/${world.project.path_with_namespace}/-/commit/${target.id}`;
    const body = (await web.get(page)).body;
    expect(body).toContain(`action="${page}/revert"`);
    expect(body).toContain(`action="${page}/cherry_pick"`);
    const reverted = await web.post(`${page}/revert`, { start_branch: 'main' }, { csrfFrom: page });
    expect(reverted.statusCode).toBe(303);
    expect(reverted.headers.location).toBe(`/${world.project.path_with_namespace}/-/commits/main`);
    expect((await web.get(reverted.headers.location as string)).body).toContain('The commit has been successfully reverted.');
    expect(await file('d.txt', 'main')).toBeNull();
    const again = await web.post(`${page}/revert`, { start_branch: 'main' }, { csrfFrom: page });
    expect(again.headers.location).toBe(page);
    expect((await web.get(page)).body).toContain('Sorry, we cannot revert this commit automatically.');
  });

  it('offers neither to a Reporter and refuses the post', async () => {
    const web = new WebSession(kiln);
    await web.signIn(world.reporter.username, world.reporter.password);
    const page = `/${world.project.path_with_namespace}/-/commit/${feature.id}`;
    expect((await web.get(page)).body).not.toContain('/cherry_pick"');
    expect((await web.post(`${page}/cherry_pick`, { start_branch: 'main' }, { csrfFrom: page })).statusCode).toBe(403);
  });
});
