// The commits API (doc/api/commits.md): the log with its filters, one commit with stats, its diff
// and refs, and commits of several actions, including parallel commits to one branch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { commit, create, repositoryWorld, update, type RepositoryWorld } from './repository-api-driver.js';
import { findProject } from '../../src/accounts/api.js';
import { listRefs } from '../../src/repositories/git.js';
import { readableRepository } from '../../src/repositories/repository-api/project-repository.js';
import { writeRef } from '../../src/repositories/repository-api/write-ref.js';

let kiln: TestKiln;
let world: RepositoryWorld;
let c1: any;
let c2: any;
let c3: any;

const commits = (suffix = '') => `/projects/${world.project.id}/repository/commits${suffix}`;
const HOUR = 3_600_000;

beforeAll(async () => {
  kiln = await testKiln();
  world = await repositoryWorld(kiln);
  c1 = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'One', actions: [create('a.txt', 'a\n'), create('docs/x.md', 'x\n')] });
  kiln.clock.advance(HOUR);
  c2 = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'Two\n\nSigned-off-by: Ann <ann@example.com>', author_email: 'bea@example.com', author_name: 'Bea', actions: [update('docs/x.md', 'x\ny\n')] });
  kiln.clock.advance(HOUR);
  c3 = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'Three', actions: [create('b.txt', 'b\n')] });
  await kiln.api('POST', `/projects/${world.project.id}/repository/tags`, { token: world.owner.token, body: { tag_name: 'v1', ref: c2.id } });
});
afterAll(async () => {
  await kiln?.close();
});

describe('GET /api/v4/projects/:id/repository/commits', () => {
  describe('as a reporter', () => {
    it('lists the default branch newest first with GitLab’s commit entity', async () => {
      const response = await kiln.api('GET', commits(), { token: world.reporter.token });
      expect(response.status).toBe(200);
      expect(response.body.map((item: any) => item.title)).toEqual(['Three', 'Two', 'One']);
      expect(response.body[1]).toEqual({
        id: c2.id,
        short_id: c2.id.slice(0, 8),
        created_at: '2026-11-22T09:00:00.000+00:00',
        parent_ids: [c1.id],
        title: 'Two',
        message: 'Two\n\nSigned-off-by: Ann <ann@example.com>',
        author_name: 'Bea',
        author_email: 'bea@example.com',
        authored_date: '2026-11-22T09:00:00.000+00:00',
        committer_name: `User ${world.owner.username}`,
        committer_email: `${world.owner.username}@example.com`,
        committed_date: '2026-11-22T09:00:00.000+00:00',
        trailers: {},
        extended_trailers: {},
        web_url: `http://kiln.test/${world.project.path_with_namespace}/-/commit/${c2.id}`,
      });
    });

    it.each([
      [{ path: 'docs/x.md' }, ['Two', 'One']],
      [{ ref_name: 'v1' }, ['Two', 'One']],
      [{ since: '2026-11-22T08:30:00Z' }, ['Three', 'Two']],
      [{ until: '2026-11-22T09:30:00Z' }, ['Two', 'One']],
      [{ author: 'Bea' }, ['Two']],
      [{ ref_name: 'nope' }, []],
    ])('filters with %j', async (query, titles) => {
      const response = await kiln.api('GET', commits(), { token: world.reporter.token, query });
      expect(response.status).toBe(200);
      expect(response.body.map((item: any) => item.title)).toEqual(titles);
    });

    it('starts the log at a commit sha given as ref_name', async () => {
      const response = await kiln.api('GET', commits(), { token: world.reporter.token, query: { ref_name: c2.id } });
      expect(response.body.map((item: any) => item.title)).toEqual(['Two', 'One']);
    });

    it('adds stats with with_stats and trailers with trailers', async () => {
      const response = await kiln.api('GET', commits(), { token: world.reporter.token, query: { with_stats: true, trailers: true, per_page: 2, page: 2 } });
      expect(response.body.map((item: any) => item.stats)).toEqual([{ additions: 2, deletions: 0, total: 2 }]);
      const two = await kiln.api('GET', commits(), { token: world.reporter.token, query: { trailers: true, ref_name: c2.id } });
      expect(two.body[0].trailers).toEqual({ 'Signed-off-by': 'Ann <ann@example.com>' });
      expect(two.body[0].extended_trailers).toEqual({ 'Signed-off-by': ['Ann <ann@example.com>'] });
    });

    it('pages without counting: a full page announces the next one', async () => {
      const full = await kiln.api('GET', commits(), { token: world.reporter.token, query: { per_page: 2 } });
      expect(full.body.map((item: any) => item.title)).toEqual(['Three', 'Two']);
      expect(full.headers['x-next-page']).toBe('2');
      expect(full.headers['x-total']).toBeUndefined();
      const last = await kiln.api('GET', commits(), { token: world.reporter.token, query: { per_page: 2, page: 2 } });
      expect(last.body.map((item: any) => item.title)).toEqual(['One']);
      expect(last.headers['x-next-page']).toBe('');
    });

    it('refuses a date it cannot read', async () => {
      const response = await kiln.api('GET', commits(), { token: world.reporter.token, query: { since: 'yesterday-ish' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'since is invalid' });
    });

    it('lists every ref with all=true', async () => {
      await commit(kiln, world.owner.token, world.project.id, { branch: 'side', start_branch: 'main', commit_message: 'Side', actions: [create('side.txt')] });
      const response = await kiln.api('GET', commits(), { token: world.reporter.token, query: { all: true } });
      expect(response.body.map((item: any) => item.title).sort()).toEqual(['One', 'Side', 'Three', 'Two']);
    });
  });

  describe('on a project without a repository', () => {
    it('answers an empty list', async () => {
      const fresh = await kiln.createProject(world.owner, 'fresh', { namespace_id: world.group.id });
      const response = await kiln.api('GET', `/projects/${fresh.id}/repository/commits`, { token: world.owner.token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    });
  });
});

describe('GET /api/v4/projects/:id/repository/commits/:sha', () => {
  it('answers the commit detail with its stats', async () => {
    const response = await kiln.api('GET', commits(`/${c2.id}`), { token: world.reporter.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: c2.id, stats: { additions: 1, deletions: 0, total: 1 }, status: null, project_id: world.project.id, last_pipeline: null });
  });

  it('finds a commit by branch or tag name, and leaves out stats with stats=false', async () => {
    const response = await kiln.api('GET', commits('/v1'), { token: world.reporter.token, query: { stats: false } });
    expect(response.body.id).toBe(c2.id);
    expect(response.body).not.toHaveProperty('stats');
  });

  it('answers 404 Commit Not Found', async () => {
    const response = await kiln.api('GET', commits('/0123456789012345678901234567890123456789'), { token: world.reporter.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Commit Not Found' });
  });
});

describe('GET /api/v4/projects/:id/repository/commits/:sha/diff', () => {
  it('answers the diff against the first parent', async () => {
    const response = await kiln.api('GET', commits(`/${c2.id}/diff`), { token: world.reporter.token });
    expect(response.body).toEqual([
      { diff: '@@ -1 +1,2 @@\n x\n+y\n', new_path: 'docs/x.md', old_path: 'docs/x.md', a_mode: '100644', b_mode: '100644', new_file: false, renamed_file: false, deleted_file: false, generated_file: false },
    ]);
    expect(response.headers['x-total']).toBe('1');
  });

  it('diffs a root commit against nothing', async () => {
    const response = await kiln.api('GET', commits(`/${c1.id}/diff`), { token: world.reporter.token });
    expect(response.body.map((diff: any) => [diff.new_path, diff.new_file, diff.a_mode])).toEqual([['a.txt', true, '0'], ['docs/x.md', true, '0']]);
  });
});

describe('GET /api/v4/projects/:id/repository/commits/:sha/refs', () => {
  it('lists the branches and tags that contain the commit', async () => {
    const response = await kiln.api('GET', commits(`/${c2.id}/refs`), { token: world.reporter.token });
    expect(response.body).toEqual([{ type: 'branch', name: 'main' }, { type: 'branch', name: 'side' }, { type: 'tag', name: 'v1' }]);
    const tagsOnly = await kiln.api('GET', commits(`/${c2.id}/refs`), { token: world.reporter.token, query: { type: 'tag' } });
    expect(tagsOnly.body).toEqual([{ type: 'tag', name: 'v1' }]);
  });
});

describe('POST /api/v4/projects/:id/repository/commits', () => {
  describe('as a developer', () => {
    it('applies create, update, move, delete and chmod in one commit and answers its detail', async () => {
      const response = await kiln.api('POST', commits(), {
        token: world.developer.token,
        body: {
          branch: 'multi',
          start_branch: 'main',
          commit_message: 'Many things',
          author_name: 'Ann',
          author_email: 'ann@example.com',
          actions: [
            { action: 'create', file_path: 'new/one.txt', content: 'one\n' },
            { action: 'create', file_path: 'tool.sh', content: Buffer.from('#!/bin/sh\n').toString('base64'), encoding: 'base64' },
            { action: 'chmod', file_path: 'tool.sh', execute_filemode: true },
            { action: 'update', file_path: 'a.txt', content: 'a2\n', last_commit_id: c1.id },
            { action: 'move', file_path: 'docs/moved.md', previous_path: 'docs/x.md' },
            { action: 'delete', file_path: 'b.txt', last_commit_id: c3.id },
          ],
        },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toMatchObject({ title: 'Many things', author_name: 'Ann', parent_ids: [c3.id], stats: { additions: 3, deletions: 2, total: 5 }, project_id: world.project.id });
      const tree = await kiln.api('GET', `/projects/${world.project.id}/repository/tree`, { token: world.developer.token, query: { ref: 'multi', recursive: true } });
      expect(tree.body.filter((entry: any) => entry.type === 'blob').map((entry: any) => [entry.path, entry.mode])).toEqual([
        ['a.txt', '100644'], ['docs/moved.md', '100644'], ['new/one.txt', '100644'], ['tool.sh', '100755'],
      ]);
      const moved = await kiln.api('GET', `/projects/${world.project.id}/repository/files/${encodeURIComponent('docs/moved.md')}/raw`, { token: world.developer.token, query: { ref: 'multi' } });
      expect(moved.body).toBe('x\ny\n');
    });

    it('refuses a stale last_commit_id with MultiService’s sentence', async () => {
      const response = await kiln.api('POST', commits(), {
        token: world.developer.token,
        body: { branch: 'multi', commit_message: 'm', actions: [{ action: 'update', file_path: 'a.txt', content: 'z', last_commit_id: c1.id }] },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'The file has changed since you started editing it: a.txt' });
    });

    it.each([
      [[{ action: 'create', file_path: 'a.txt', content: 'x' }], 'A file with this name already exists'],
      [[{ action: 'delete', file_path: 'nope' }], "A file with this name doesn't exist"],
      [[{ action: 'move', file_path: 'b2.txt', previous_path: 'nope' }], "A file with this name doesn't exist"],
      [[{ action: 'create', file_path: '../escape', content: 'x' }], 'Path cannot include directory traversal'],
      [[{ action: 'create', file_path: '.git/hooks/pre-receive', content: 'x' }], "invalid path: '.git/hooks/pre-receive'"],
    ])('refuses %j with 400 %j and moves nothing', async (actions, message) => {
      const before = await kiln.api('GET', commits('/multi'), { token: world.developer.token });
      const response = await kiln.api('POST', commits(), { token: world.developer.token, body: { branch: 'multi', commit_message: 'm', actions } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message });
      expect((await kiln.api('GET', commits('/multi'), { token: world.developer.token })).body.id).toBe(before.body.id);
    });

    it.each([
      [{ branch: 'multi', commit_message: 'm' }, 'actions is missing'],
      [{ branch: 'multi', commit_message: 'm', actions: 'nope' }, 'actions is invalid'],
      [{ branch: 'multi', commit_message: 'm', actions: [{ action: 'rename', file_path: 'a' }] }, 'actions[0][action] does not have a valid value'],
      [{ branch: 'multi', commit_message: 'm', actions: [{ file_path: 'a' }, { action: 'move', file_path: 'b' }] }, 'actions[0][action] is missing, actions[1][previous_path] is missing'],
      [{ branch: 'multi', commit_message: 'm', actions: [{ action: 'update', file_path: 'a.txt' }] }, 'actions[0][content] is missing'],
      [{ branch: 'multi', commit_message: 'm', actions: [{ action: 'chmod', file_path: 'a.txt' }] }, 'actions[0][execute_filemode] is missing'],
      [{ branch: 'multi', commit_message: 'm', actions: [{ action: 'create', file_path: 'z', encoding: 'hex' }] }, 'actions[0][encoding] does not have a valid value'],
      [{ branch: 'multi', commit_message: 'm', start_branch: 'main', start_sha: 'a'.repeat(40), actions: [] }, 'start_branch, start_sha are mutually exclusive'],
      [{ commit_message: 'm', actions: [] }, 'branch is missing'],
    ])('names bad parameters: %j', async (body, error) => {
      const response = await kiln.api('POST', commits(), { token: world.developer.token, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error });
    });

    it('starts a new branch from start_sha, and refuses a sha it cannot find', async () => {
      const made = await commit(kiln, world.developer.token, world.project.id, { branch: 'from-sha', start_sha: c1.id, actions: [create('c.txt')] });
      expect(made.parent_ids).toEqual([c1.id]);
      const unknown = await kiln.api('POST', commits(), { token: world.developer.token, body: { branch: 'x2', start_sha: '0'.repeat(40), commit_message: 'm', actions: [] } });
      expect(unknown.body).toEqual({ message: `Cannot find start_sha '${'0'.repeat(40)}'` });
      const invalid = await kiln.api('POST', commits(), { token: world.developer.token, body: { branch: 'x2', start_sha: 'main', commit_message: 'm', actions: [] } });
      expect(invalid.body).toEqual({ message: "Invalid start_sha 'main'" });
    });

    it('overwrites an existing branch with force=true, and refuses without it', async () => {
      const refused = await kiln.api('POST', commits(), { token: world.developer.token, body: { branch: 'from-sha', start_branch: 'main', commit_message: 'm', actions: [] } });
      expect(refused.body).toEqual({ message: "A branch called 'from-sha' already exists. Switch to that branch in order to make changes" });
      const forced = await commit(kiln, world.developer.token, world.project.id, { branch: 'from-sha', start_branch: 'main', force: true, actions: [create('forced.txt')] });
      expect(forced.parent_ids).toEqual([c3.id]);
    });

    it('refuses a forced overwrite of a protected branch that allows no force push', async () => {
      await kiln.api('POST', `/projects/${world.project.id}/protected_branches`, { token: world.owner.token, body: { name: 'guarded', push_access_level: 30 } });
      await commit(kiln, world.developer.token, world.project.id, { branch: 'guarded', start_branch: 'main', actions: [create('g.txt')] });
      const response = await kiln.api('POST', commits(), { token: world.developer.token, body: { branch: 'guarded', start_sha: c1.id, force: true, commit_message: 'm', actions: [] } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'You are not allowed to force push code to a protected branch on this project.' });
    });

    it('refuses the protected default branch', async () => {
      const response = await kiln.api('POST', commits(), { token: world.developer.token, body: { branch: 'main', commit_message: 'm', actions: [create('z.txt')] } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'You are not allowed to push into this branch' });
    });

    it('accepts start_project naming this project and refuses another', async () => {
      await commit(kiln, world.developer.token, world.project.id, { branch: 'from-project', start_branch: 'main', start_project: world.project.id, actions: [create('p.txt')] });
      const other = await kiln.createProject(world.developer, 'mine');
      const response = await kiln.api('POST', commits(), { token: world.developer.token, body: { branch: 'from-other', start_branch: 'main', start_project: other.id, commit_message: 'm', actions: [] } });
      expect(response.status).toBe(403);
      expect(response.body.message).toBe(`403 Forbidden - Project is not included in the fork network for ${other.name_with_namespace}`);
    });
  });

  describe('in an empty repository', () => {
    it('makes the first commit of the default branch for a maintainer, and protects it', async () => {
      const empty = await kiln.createProject(world.owner, 'empty', { namespace_id: world.group.id });
      const made = await commit(kiln, world.owner.token, empty.id, { branch: 'main', actions: [create('README.md')] });
      expect(made.parent_ids).toEqual([]);
      const branch = await kiln.api('GET', `/projects/${empty.id}/repository/branches/main`, { token: world.owner.token });
      expect(branch.body.protected).toBe(true);
    });
  });

  describe('with parallel commits to one branch', () => {
    it('never loses one: each is on the branch or refused with GitLab’s conflict error', async () => {
      await commit(kiln, world.developer.token, world.project.id, { branch: 'race', start_branch: 'main', actions: [create('race/0.txt')] });
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          kiln.api('POST', commits(), { token: world.developer.token, body: { branch: 'race', commit_message: `race ${index + 1}`, actions: [create(`race/${index + 1}.txt`)] } }),
        ),
      );
      for (const answer of answers) {
        if (answer.status !== 201) expect(answer).toMatchObject({ status: 400, body: { message: 'Could not update branch race. Please refresh and try again.' } });
      }
      const won = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.title);
      expect(won.length).toBeGreaterThan(0);
      const log = await kiln.api('GET', commits(), { token: world.developer.token, query: { ref_name: 'race', per_page: 100 } });
      const onBranch = log.body.map((item: any) => item.title).filter((title: string) => title.startsWith('race '));
      expect(onBranch.sort()).toEqual([...won].sort());
      const tree = await kiln.api('GET', `/projects/${world.project.id}/repository/tree`, { token: world.developer.token, query: { ref: 'race', path: 'race' } });
      expect(tree.body.map((entry: any) => entry.name).sort()).toEqual(['0.txt', ...won.map((title: string) => `${title.slice(5)}.txt`)].sort());
    });
  });

  describe('when the branch moved after the commit was built', () => {
    it('refuses the stale update, keeps the other commit and records no event for it', async () => {
      const access = await findProject(kiln.deps, { user: { id: world.developer.id, username: world.developer.username, name: 'Dev', state: 'active', admin: false, otpRequired: false }, scopes: ['api'], via: 'personal_access_token', tokenId: null }, world.project.id);
      const repoPath = await readableRepository(kiln.deps, access.project);
      const stale = await listRefs(repoPath!);
      const winner = await commit(kiln, world.developer.token, world.project.id, { branch: 'race', actions: [create('winner.txt')] });
      const eventsBefore = (await kiln.api('GET', `/projects/${world.project.id}/events`, { token: world.owner.token, query: { action: 'pushed', per_page: 100 } })).body.length;
      const write = writeRef(kiln.deps, { project: access.project, user: access.user!, repoPath: repoPath!, before: stale, ref: 'refs/heads/race', newId: c1.id, conflictMessage: 'Could not update branch race. Please refresh and try again.' });
      await expect(write).rejects.toThrow('Could not update branch race. Please refresh and try again.');
      expect((await kiln.api('GET', commits('/race'), { token: world.developer.token })).body.id).toBe(winner.id);
      expect((await kiln.api('GET', `/projects/${world.project.id}/events`, { token: world.owner.token, query: { action: 'pushed', per_page: 100 } })).body.length).toBe(eventsBefore);
    });
  });

  describe('as a reporter', () => {
    it('is refused with 403', async () => {
      expect((await kiln.api('POST', commits(), { token: world.reporter.token, body: { branch: 'r', start_branch: 'main', commit_message: 'm', actions: [] } })).status).toBe(403);
    });
  });
});
