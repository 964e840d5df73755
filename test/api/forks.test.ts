// Forks (issue 34): POST /projects/:id/fork and its permissions, the fork's repository (hard links to
// the upstream's objects that outlive the upstream), forked_from_project and forks_count, the forks
// list, linking and unlinking, and merge requests from a fork into its upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, seedRepository } from './merge-requests-helpers.js';
import { findRepository } from '../../src/repositories/ensure-repository.js';
import { repositoryPath } from '../../src/repositories/shards.js';
import { pruneOrphanRepositories } from '../../src/repositories/prune-orphans.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let outsider: TestUser;

async function repoPath(projectId: number): Promise<string> {
  const row = await findRepository(kiln.deps, 'project', projectId);
  return repositoryPath(kiln.config.storages, row!.shard, row!.disk_path);
}

function packInodes(path: string): Map<string, number> {
  const dir = join(path, 'objects', 'pack');
  return new Map(readdirSync(dir).filter((name) => name.endsWith('.pack')).map((name) => [name, statSync(join(dir, name)).ino]));
}

const raw = (projectId: number, file: string, ref: string, token: string) => kiln.request('GET', `/api/v4/projects/${projectId}/repository/files/${encodeURIComponent(file)}/raw`, { token, query: { ref } });

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  outsider = await kiln.createUser('outsider');
  await seedRepository(kiln, w.owner, w.project.id);
  await branchWith(kiln, w.developer, w.project.id, 'feature', [create('feature.txt', 'feature\n')]);
  // Packed, as a repository is after any gc: the fork's pack must be the upstream's file, not a copy.
  const { git } = await import('../../src/repositories/git.js');
  await git(await repoPath(w.project.id), ['repack', '-a', '-d', '-q']);
});

afterAll(async () => {
  await kiln?.close();
});

describe('POST /api/v4/projects/:id/fork', () => {
  let fork: any;

  it('forks into the caller\'s namespace as a developer: 201, the upstream named, its objects shared', async () => {
    const response = await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.developer.token });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    fork = response.body;
    expect(fork).toMatchObject({
      name: 'app', path: 'app', path_with_namespace: `${w.developer.username}/app`, visibility: 'private', default_branch: 'main', forks_count: 0,
      namespace: { kind: 'user', path: w.developer.username },
      forked_from_project: { id: w.project.id, path_with_namespace: w.project.path_with_namespace },
      permissions: { project_access: { access_level: 50 } },
    });
    const upstream = await kiln.api('GET', `/projects/${w.project.id}`, { token: w.developer.token });
    expect(upstream.body.forks_count).toBe(1);
    expect(upstream.body.forked_from_project).toBeUndefined();

    expect((await raw(fork.id, 'feature.txt', 'feature', w.developer.token)).body).toBe('feature\n');
    const [upstreamPacks, forkPacks] = [packInodes(await repoPath(w.project.id)), packInodes(await repoPath(fork.id))];
    expect(forkPacks.size).toBeGreaterThan(0);
    for (const [name, inode] of forkPacks) expect(upstreamPacks.get(name)).toBe(inode);
    // Its own repository: no remote pointing back at the upstream.
    const { git } = await import('../../src/repositories/git.js');
    expect(await git(await repoPath(fork.id), ['config', '--get-regexp', '^remote\\.']).catch(() => '')).toBe('');
  });

  it('records the creation as a project event', async () => {
    const events = await kiln.api('GET', `/projects/${fork.id}/events`, { token: w.developer.token });
    expect(events.body.map((event: any) => event.action_name)).toContain('created');
  });

  it('answers 409 with the model\'s messages for a second fork into the same namespace', async () => {
    const again = await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.developer.token });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('Path has already been taken');
  });

  it('takes name, path, description, a lower visibility, mr_default_target_self and one branch', async () => {
    const response = await kiln.api('POST', `/projects/${w.project.id}/fork`, {
      token: w.maintainer.token,
      body: { name: 'Only feature', path: 'only-feature', description: 'mine', visibility: 'public', mr_default_target_self: true, branches: 'feature' },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    // Never more visible than the upstream.
    expect(response.body).toMatchObject({ name: 'Only feature', path: 'only-feature', description: 'mine', visibility: 'private', mr_default_target_self: true, default_branch: 'feature' });
    const branches = await kiln.api('GET', `/projects/${response.body.id}/repository/branches`, { token: w.maintainer.token });
    expect(branches.body.map((branch: any) => branch.name)).toEqual(['feature']);
  });

  it('answers GitLab\'s 404s: a branch, a namespace, a namespace the caller cannot create in', async () => {
    const branch = await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.maintainer.token, body: { branches: 'nope', path: 'x1' } });
    expect(branch).toMatchObject({ status: 404, body: { message: '404 Source Branch Not Found' } });
    const namespace = await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.maintainer.token, body: { namespace_path: 'no/such/group' } });
    expect(namespace).toMatchObject({ status: 404, body: { message: '404 Namespace Not Found' } });
    const target = await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.maintainer.token, body: { namespace_id: w.group.id, path: 'x2' } });
    expect(target).toMatchObject({ status: 404, body: { message: '404 Target Namespace Not Found' } });
    // The group's owner may create there.
    const owner = await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.owner.token, body: { namespace_path: w.group.full_path, path: 'app-fork' } });
    expect(owner.status, JSON.stringify(owner.body)).toBe(201);
    expect(owner.body.namespace.id).toBe(w.group.id);
  });

  it('is refused with 404 to a guest and a non-member of a private project, and to all when forking is disabled', async () => {
    expect((await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.guest.token })).status).toBe(404);
    expect((await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: outsider.token })).status).toBe(404);
    expect((await kiln.api('POST', `/projects/${w.project.id}/fork`)).status).toBe(401);
    expect((await kiln.api('PUT', `/projects/${w.project.id}`, { token: w.owner.token, body: { forking_access_level: 'disabled' } })).status).toBe(200);
    expect((await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.reporter.token })).status).toBe(404);
    expect((await kiln.api('PUT', `/projects/${w.project.id}`, { token: w.owner.token, body: { forking_access_level: 'enabled' } })).status).toBe(200);
    const reporter = await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.reporter.token });
    expect(reporter.status).toBe(201);
  });

  it('lets any signed-in user fork a public project (not an anonymous one)', async () => {
    const open = await repositoryWorld(kiln, { visibility: 'public' });
    await seedRepository(kiln, open.owner, open.project.id);
    const response = await kiln.api('POST', `/projects/${open.project.id}/fork`, { token: outsider.token });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.visibility).toBe('public');
    expect((await raw(response.body.id, 'README.md', 'main', outsider.token)).body).toBe('hello\n');
  });
});

describe('GET /api/v4/projects/:id/forks', () => {
  it('lists the forks the caller can see, with forked_from_project', async () => {
    const mine = await kiln.api('GET', `/projects/${w.project.id}/forks`, { token: w.developer.token });
    expect(mine.status).toBe(200);
    expect(mine.body.map((project: any) => project.path_with_namespace)).toEqual([`${w.developer.username}/app`]);
    expect(mine.body[0].forked_from_project.id).toBe(w.project.id);
    const all = await kiln.api('GET', `/projects/${w.project.id}/forks`, { token: kiln.root.token });
    expect(all.body.length).toBe(4);
    expect(all.headers['x-total']).toBe('4');
  });
});

describe('POST /api/v4/projects/:id/fork/:forked_from_id and DELETE /api/v4/projects/:id/fork', () => {
  it('links an existing project as a fork, once; unlinks it once', async () => {
    const loose = await kiln.createProject(w.developer, 'loose');
    const link = await kiln.api('POST', `/projects/${loose.id}/fork/${w.project.id}`, { token: w.developer.token });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect(link.body.forked_from_project.id).toBe(w.project.id);
    expect(await kiln.api('POST', `/projects/${loose.id}/fork/${w.project.id}`, { token: w.developer.token })).toMatchObject({ status: 409, body: { message: 'Project already forked' } });
    const before = (await kiln.api('GET', `/projects/${w.project.id}`, { token: w.owner.token })).body.forks_count;

    expect((await kiln.api('DELETE', `/projects/${loose.id}/fork`, { token: w.developer.token })).status).toBe(204);
    expect((await kiln.api('DELETE', `/projects/${loose.id}/fork`, { token: w.developer.token })).status).toBe(304);
    expect((await kiln.api('GET', `/projects/${loose.id}`, { token: w.developer.token })).body.forked_from_project).toBeUndefined();
    expect((await kiln.api('GET', `/projects/${w.project.id}`, { token: w.owner.token })).body.forks_count).toBe(before - 1);
  });

  it('refuses a link to an upstream the caller may not fork, and unlinking by a non-owner', async () => {
    const loose = await kiln.createProject(outsider, 'loose2');
    expect((await kiln.api('POST', `/projects/${loose.id}/fork/${w.project.id}`, { token: outsider.token })).status).toBe(404);
    const devFork = (await kiln.api('GET', `/projects/${w.project.id}/forks`, { token: w.developer.token })).body[0];
    await kiln.addMember(w.developer, 'projects', devFork.id, outsider, 40);
    expect((await kiln.api('DELETE', `/projects/${devFork.id}/fork`, { token: outsider.token })).status).toBe(403);
  });
});

describe('merge requests from a fork (POST /api/v4/projects/:fork/merge_requests with target_project_id)', () => {
  it('opens into the upstream with Developer in the fork only, follows pushes to the fork, and merges', async () => {
    // The reporter's fork (a Reporter upstream, the Owner of the fork).
    const fork = (await kiln.api('GET', `/projects/${w.project.id}/forks`, { token: w.reporter.token })).body.find((project: any) => project.namespace.path === w.reporter.username);
    await branchWith(kiln, w.reporter, fork.id, 'fix', [create('fix.txt', 'fixed\n')], 'Fix it');
    const opened = await kiln.api('POST', `/projects/${fork.id}/merge_requests`, { token: w.reporter.token, body: { source_branch: 'fix', target_branch: 'main', target_project_id: w.project.id, title: 'Fix from a fork', allow_collaboration: true } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    // Asked for, but impossible between private projects: GitLab answers false (collaborative_push_possible?).
    expect(opened.body).toMatchObject({ project_id: w.project.id, source_project_id: fork.id, target_project_id: w.project.id, allow_collaboration: false, allow_maintainer_to_push: false });
    const iid = opened.body.iid;
    const base = `/projects/${w.project.id}/merge_requests/${iid}`;
    await kiln.worker.drain();
    const { git } = await import('../../src/repositories/git.js');
    const forkHead = (await git(await repoPath(fork.id), ['rev-parse', 'refs/heads/fix'])).trim();
    expect((await git(await repoPath(w.project.id), ['rev-parse', `refs/merge-requests/${iid}/head`])).trim()).toBe(forkHead);
    expect((await kiln.api('GET', base, { token: w.maintainer.token })).body).toMatchObject({ merge_status: 'can_be_merged', sha: forkHead });
    const listed = await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: w.maintainer.token, query: { source_project_id: fork.id } });
    expect(listed.body.map((mr: any) => mr.iid)).toEqual([iid]);

    // A push to the fork's branch is a new version in the upstream.
    await branchWith(kiln, w.reporter, fork.id, 'fix', [create('more.txt', 'more\n')], 'More');
    await kiln.worker.drain();
    expect((await kiln.api('GET', `${base}/versions`, { token: w.maintainer.token })).body).toHaveLength(2);
    const changes = await kiln.api('GET', `${base}/changes`, { token: w.maintainer.token });
    expect(changes.body.changes.map((change: any) => change.new_path).sort()).toEqual(['fix.txt', 'more.txt']);

    const merged = await kiln.api('PUT', `${base}/merge`, { token: w.maintainer.token });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.state).toBe('merged');
    expect((await raw(w.project.id, 'more.txt', 'main', w.maintainer.token)).body).toBe('more\n');
  });

  it('refuses a target outside the fork network with GitLab\'s 422, and an unreadable one with 404', async () => {
    const fork = (await kiln.api('GET', `/projects/${w.project.id}/forks`, { token: w.reporter.token })).body.find((project: any) => project.namespace.path === w.reporter.username);
    const other = await kiln.createProject(w.reporter, 'elsewhere');
    const stranger = await kiln.api('POST', `/projects/${fork.id}/merge_requests`, { token: w.reporter.token, body: { source_branch: 'fix', target_branch: 'main', target_project_id: other.id, title: 'No' } });
    expect(stranger).toMatchObject({ status: 422, body: { message: ['Source project is not a fork of the target project'] } });
    const hidden = await kiln.createProject(outsider, 'hidden');
    expect((await kiln.api('POST', `/projects/${fork.id}/merge_requests`, { token: w.reporter.token, body: { source_branch: 'fix', target_branch: 'main', target_project_id: hidden.id, title: 'No' } })).status).toBe(404);
  });
});

describe('GET and POST /:project/-/forks/new', () => {
  it('shows the Fork button and the namespace choice, and forks into the chosen group', async () => {
    const web = new WebSession(kiln);
    await web.signIn(w.owner.username, w.owner.password);
    const overview = await web.get(`/${w.project.path_with_namespace}`);
    expect(overview.body).toContain(`href="/${w.project.path_with_namespace}/-/forks/new"`);
    const form = await web.get(`/${w.project.path_with_namespace}/-/forks/new`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`<option value="${w.group.id}"`);
    const posted = await web.post(`/${w.project.path_with_namespace}/-/forks/new`, { namespace_id: String(w.group.id), name: 'Paged fork', path: 'paged-fork', description: '', visibility: 'private' });
    expect(posted.statusCode, posted.body).toBe(303);
    expect(posted.headers.location).toBe(`/${w.group.full_path}/paged-fork`);
    const again = await web.post(`/${w.project.path_with_namespace}/-/forks/new`, { namespace_id: String(w.group.id), name: 'Paged fork', path: 'paged-fork', description: '', visibility: 'private' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('Path has already been taken');
  });

  it('offers the groups where the caller may create projects: inherited into subgroups, not where only a Reporter', async () => {
    const crew = await kiln.createGroup(w.owner, 'fork-crew');
    const sub = await kiln.createGroup(w.owner, 'fork-crew-sub', { parent_id: crew.id });
    const watch = await kiln.createGroup(w.owner, 'fork-watch');
    await kiln.addMember(w.owner, 'groups', crew.id, w.developer, ACCESS.developer);
    await kiln.addMember(w.owner, 'groups', watch.id, w.developer, ACCESS.reporter);
    const web = new WebSession(kiln);
    await web.signIn(w.developer.username, w.developer.password);
    const form = await web.get(`/${w.project.path_with_namespace}/-/forks/new`);
    expect(form.statusCode).toBe(200);
    const offered = [...form.body.matchAll(/<option value="\d+"[^>]*>([^<]+)<\/option>/g)].map((match) => match[1]);
    expect(offered).toEqual([w.developer.username, crew.full_path, sub.full_path]);
    expect(form.body).not.toContain(`<option value="${watch.id}"`);
  });

  it('is 404 to a guest of a private project', async () => {
    const web = new WebSession(kiln);
    await web.signIn(w.guest.username, w.guest.password);
    expect((await web.get(`/${w.project.path_with_namespace}/-/forks/new`)).statusCode).toBe(404);
  });
});

describe('a fork outlives its upstream', () => {
  it('keeps every object when the upstream is deleted and its repository removed from disk', async () => {
    const doomed = await kiln.createProject(w.owner, 'doomed', { namespace_id: w.group.id });
    await seedRepository(kiln, w.owner, doomed.id);
    const forked = await kiln.api('POST', `/projects/${doomed.id}/fork`, { token: w.owner.token, body: { path: 'survivor' } });
    expect(forked.status).toBe(201);
    const upstreamPath = await repoPath(doomed.id);
    expect((await kiln.api('DELETE', `/projects/${doomed.id}`, { token: w.owner.token })).status).toBe(202);
    expect(await pruneOrphanRepositories(kiln.deps)).toBe(1);
    expect(existsSync(upstreamPath)).toBe(false);
    expect((await raw(forked.body.id, 'README.md', 'main', w.owner.token)).body).toBe('hello\n');
    const { git } = await import('../../src/repositories/git.js');
    await git(await repoPath(forked.body.id), ['fsck', '--no-dangling', '--no-progress']);
    expect((await kiln.api('GET', `/projects/${forked.body.id}`, { token: w.owner.token })).body.forked_from_project).toBeUndefined();
  });

  it('counts one fork less on the upstream when a fork is deleted', async () => {
    const before = (await kiln.api('GET', `/projects/${w.project.id}`, { token: w.owner.token })).body.forks_count;
    const fork = (await kiln.api('GET', `/projects/${w.project.id}/forks`, { token: w.maintainer.token })).body.find((project: any) => project.path === 'only-feature');
    expect((await kiln.api('DELETE', `/projects/${fork.id}`, { token: w.maintainer.token })).status).toBe(202);
    expect((await kiln.api('GET', `/projects/${w.project.id}`, { token: w.owner.token })).body.forks_count).toBe(before - 1);
  });
});
