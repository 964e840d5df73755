// The repository files API (doc/api/repository_files.md): a file with its metadata and base64
// content, HEAD, raw, blame, and create/update/delete as commits with GitLab's refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { commit, create, repositoryWorld, update, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let world: RepositoryWorld;
let first: any;
let second: any;

const files = (path: string, suffix = '') => `/projects/${world.project.id}/repository/files/${encodeURIComponent(path)}${suffix}`;

beforeAll(async () => {
  kiln = await testKiln();
  world = await repositoryWorld(kiln);
  first = await commit(kiln, world.owner.token, world.project.id, {
    branch: 'main',
    commit_message: 'First',
    actions: [create('docs/guide.md', 'line one\nline two\n'), { action: 'create', file_path: 'bin/tool', content: Buffer.from([0, 1, 2, 255]).toString('base64'), encoding: 'base64' }],
  });
  kiln.clock.advance(60_000);
  second = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'Second', actions: [update('docs/guide.md', 'line one\nline 2\nline three\n')] });
  const dev = await kiln.api('POST', `/projects/${world.project.id}/repository/branches`, { token: world.owner.token, body: { branch: 'dev', ref: 'main' } });
  expect(dev.status).toBe(201);
});
afterAll(async () => {
  await kiln?.close();
});

describe('GET /api/v4/projects/:id/repository/files/:file_path', () => {
  describe('as a reporter', () => {
    it('answers the file with base64 content and its metadata, also as X-Gitlab-* headers', async () => {
      const response = await kiln.api('GET', files('docs/guide.md'), { token: world.reporter.token, query: { ref: 'main' } });
      expect(response.status).toBe(200);
      const content = 'line one\nline 2\nline three\n';
      expect(response.body).toEqual({
        file_name: 'guide.md',
        file_path: 'docs/guide.md',
        size: content.length,
        encoding: 'base64',
        content_sha256: createHash('sha256').update(content).digest('hex'),
        ref: 'main',
        blob_id: expect.stringMatching(/^[0-9a-f]{40}$/),
        commit_id: second.id,
        last_commit_id: second.id,
        execute_filemode: false,
        content: Buffer.from(content).toString('base64'),
      });
      expect(response.headers['x-gitlab-file-path']).toBe('docs/guide.md');
      expect(response.headers['x-gitlab-last-commit-id']).toBe(second.id);
      expect(response.headers['x-gitlab-execute-filemode']).toBe('false');
      expect(response.headers['content-type']).toBe('application/json');
    });

    it('reads the file at an older commit, with the last commit that changed it there', async () => {
      const response = await kiln.api('GET', files('docs/guide.md'), { token: world.reporter.token, query: { ref: first.id } });
      expect(Buffer.from(response.body.content, 'base64').toString()).toBe('line one\nline two\n');
      expect(response.body).toMatchObject({ commit_id: first.id, last_commit_id: first.id, ref: first.id });
    });

    it('answers HEAD with the headers only', async () => {
      const response = await kiln.request('HEAD', `/api/v4${files('docs/guide.md')}?ref=main`, { token: world.reporter.token });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
      expect(response.headers['x-gitlab-blob-id']).toMatch(/^[0-9a-f]{40}$/);
      expect(response.headers['x-gitlab-size']).toBe('27');
    });

    it.each([
      ['docs/nope.md', 'main', 404, { message: '404 File Not Found' }],
      ['docs', 'main', 404, { message: '404 File Not Found' }],
      ['docs/guide.md', 'nope', 404, { message: '404 Commit Not Found' }],
      ['../etc/passwd', 'main', 400, { error: 'file_path should be a valid file path' }],
      ['/etc/passwd', 'main', 400, { error: 'file_path should be a valid file path' }],
    ])('answers %j at %j with %i', async (path, ref, status, body) => {
      const response = await kiln.api('GET', files(path), { token: world.reporter.token, query: { ref } });
      expect(response.status).toBe(status);
      expect(response.body).toEqual(body);
    });

    it('requires ref', async () => {
      const response = await kiln.api('GET', files('docs/guide.md'), { token: world.reporter.token });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'ref is missing' });
    });
  });

  describe('with a token limited to read_repository', () => {
    it('is allowed, as GitLab allows read_repository on GET and HEAD', async () => {
      const reader = await kiln.createUser('repo-reader', { scopes: ['read_repository'] });
      await kiln.addMember(world.owner, 'projects', world.project.id, reader, 20);
      expect((await kiln.api('GET', files('docs/guide.md'), { token: reader.token, query: { ref: 'main' } })).status).toBe(200);
      expect((await kiln.api('GET', `/projects/${world.project.id}/repository/branches`, { token: reader.token })).status).toBe(403);
    });
  });

  describe('as a guest of a private project', () => {
    it('is refused', async () => {
      expect((await kiln.api('GET', files('docs/guide.md'), { token: world.guest.token, query: { ref: 'main' } })).status).toBe(403);
    });
  });
});

describe('GET /api/v4/projects/:id/repository/files/:file_path/raw', () => {
  it('answers the bytes of a text file as text/plain, at the default branch without ref', async () => {
    const response = await kiln.request('GET', `/api/v4${files('docs/guide.md', '/raw')}`, { token: world.reporter.token });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('line one\nline 2\nline three\n');
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['x-gitlab-commit-id']).toBe(second.id);
  });

  it('answers a binary file as application/octet-stream, byte for byte', async () => {
    const response = await kiln.request('GET', `/api/v4${files('bin/tool', '/raw')}?ref=${first.id}`, { token: world.reporter.token });
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect([...response.rawPayload]).toEqual([0, 1, 2, 255]);
  });
});

describe('GET /api/v4/projects/:id/repository/files/:file_path/blame', () => {
  it('groups consecutive lines by the commit that last changed them', async () => {
    const response = await kiln.api('GET', files('docs/guide.md', '/blame'), { token: world.reporter.token, query: { ref: 'main' } });
    expect(response.status).toBe(200);
    expect(response.body.map((range: any) => [range.commit.id, range.lines])).toEqual([
      [first.id, ['line one']],
      [second.id, ['line 2', 'line three']],
    ]);
    expect(response.body[0].commit.title).toBe('First');
  });

  it('blames a range of lines', async () => {
    const response = await kiln.api('GET', `${files('docs/guide.md', '/blame')}?ref=main&range[start]=2&range[end]=2`, { token: world.reporter.token });
    expect(response.body.map((range: any) => range.lines)).toEqual([['line 2']]);
  });

  it.each([
    ['range[start]=3&range[end]=1', { message: 'range[start] must be less than or equal to range[end]' }],
    ['range[start]=0&range[end]=1', { error: 'range[start] does not have a valid value' }],
    ['range[start]=1', { error: 'range[end] is missing' }],
  ])('refuses %s', async (query, body) => {
    const response = await kiln.api('GET', `${files('docs/guide.md', '/blame')}?ref=main&${query}`, { token: world.reporter.token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(body);
  });
});

describe('POST /api/v4/projects/:id/repository/files/:file_path', () => {
  describe('as a developer', () => {
    it('stores every parameter: content, encoding, execute_filemode, author, start_branch and the message', async () => {
      kiln.clock.advance(60_000);
      const response = await kiln.api('POST', files('scripts/run.sh'), {
        token: world.developer.token,
        body: {
          branch: 'feature/run',
          start_branch: 'dev',
          content: Buffer.from('#!/bin/sh\necho hi\n').toString('base64'),
          encoding: 'base64',
          execute_filemode: true,
          commit_message: 'Add run.sh\n\nWith a body',
          author_name: 'Ada Author',
          author_email: 'ada@example.com',
          last_commit_id: first.id,
        },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toEqual({ file_path: 'scripts/run.sh', branch: 'feature/run' });
      const file = await kiln.api('GET', files('scripts/run.sh'), { token: world.developer.token, query: { ref: 'feature/run' } });
      expect(Buffer.from(file.body.content, 'base64').toString()).toBe('#!/bin/sh\necho hi\n');
      expect(file.body.execute_filemode).toBe(true);
      const made = await kiln.api('GET', `/projects/${world.project.id}/repository/commits/${file.body.commit_id}`, { token: world.developer.token });
      expect(made.body).toMatchObject({
        message: 'Add run.sh\n\nWith a body',
        title: 'Add run.sh',
        author_name: 'Ada Author',
        author_email: 'ada@example.com',
        committer_name: `User ${world.developer.username}`,
        committer_email: `${world.developer.username}@example.com`,
        committed_date: new Date(kiln.clock.now()).toISOString().replace('Z', '+00:00'),
        parent_ids: [second.id],
      });
    });

    it('records a push event for the commit', async () => {
      const events = await kiln.api('GET', `/projects/${world.project.id}/events`, { token: world.owner.token, query: { action: 'pushed' } });
      const event = events.body.find((item: any) => item.push_data.ref === 'feature/run');
      expect(event.push_data).toMatchObject({ action: 'created', ref_type: 'branch', commit_count: 1, commit_title: 'Add run.sh', commit_from: null });
    });

    it.each([
      [{ branch: 'dev', content: 'x', commit_message: 'm' }, 'docs/guide.md', 'A file with this name already exists'],
      [{ branch: 'dev', content: 'x', commit_message: 'm' }, 'docs', 'A directory with this name already exists'],
      [{ branch: 'nope', content: 'x', commit_message: 'm' }, 'new.txt', 'You can only create or edit files when you are on a branch'],
      [{ branch: 'new', start_branch: 'nope', content: 'x', commit_message: 'm' }, 'new.txt', 'You can only create or edit files when you are on a branch'],
      [{ branch: 'dev', start_branch: 'main', content: 'x', commit_message: 'm' }, 'new.txt', "A branch called 'dev' already exists. Switch to that branch in order to make changes"],
      [{ branch: 'bad..name', start_branch: 'main', content: 'x', commit_message: 'm' }, 'new.txt', "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid"],
      [{ branch: 'main', content: 'x', commit_message: 'm' }, 'new.txt', 'You are not allowed to push into this branch'],
    ])('refuses %j on %j with 400 %j', async (body, path, message) => {
      const response = await kiln.api('POST', files(path), { token: world.developer.token, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message });
    });

    it.each([
      [{}, 'branch is missing, commit_message is missing, content is missing'],
      [{ branch: '', commit_message: '', content: '' }, 'branch is empty, commit_message is empty'],
      [{ branch: 'dev', commit_message: 'm', content: 'x', encoding: 'utf-16' }, 'encoding does not have a valid value'],
      [{ branch: 'dev', commit_message: 'm', content: 'x', execute_filemode: 'maybe' }, 'execute_filemode is invalid'],
    ])('names bad parameters: %j', async (body, error) => {
      const response = await kiln.api('POST', files('new.txt'), { token: world.developer.token, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error });
    });
  });

  describe('as a reporter', () => {
    it('is refused with 403', async () => {
      expect((await kiln.api('POST', files('x.txt'), { token: world.reporter.token, body: { branch: 'dev', content: 'x', commit_message: 'm' } })).status).toBe(403);
    });
  });
});

describe('PUT /api/v4/projects/:id/repository/files/:file_path', () => {
  describe('as a developer', () => {
    it('updates a file, keeping its mode unless execute_filemode says otherwise', async () => {
      const response = await kiln.api('PUT', files('scripts/run.sh'), { token: world.developer.token, body: { branch: 'feature/run', content: 'echo changed\n', commit_message: 'Change' } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ file_path: 'scripts/run.sh', branch: 'feature/run' });
      let file = await kiln.api('GET', files('scripts/run.sh'), { token: world.developer.token, query: { ref: 'feature/run' } });
      expect(file.body.execute_filemode).toBe(true);
      await kiln.api('PUT', files('scripts/run.sh'), { token: world.developer.token, body: { branch: 'feature/run', content: 'echo again\n', commit_message: 'Again', execute_filemode: false } });
      file = await kiln.api('GET', files('scripts/run.sh'), { token: world.developer.token, query: { ref: 'feature/run' } });
      expect(file.body.execute_filemode).toBe(false);
      expect(Buffer.from(file.body.content, 'base64').toString()).toBe('echo again\n');
    });

    it('refuses a stale last_commit_id and accepts the current one', async () => {
      const current = await kiln.api('GET', files('scripts/run.sh'), { token: world.developer.token, query: { ref: 'feature/run' } });
      const stale = await kiln.api('PUT', files('scripts/run.sh'), { token: world.developer.token, body: { branch: 'feature/run', content: 'x', commit_message: 'm', last_commit_id: second.id } });
      expect(stale.status).toBe(400);
      expect(stale.body).toEqual({ message: 'You are attempting to update a file that has changed since you started editing it.' });
      const fresh = await kiln.api('PUT', files('scripts/run.sh'), { token: world.developer.token, body: { branch: 'feature/run', content: 'x', commit_message: 'm', last_commit_id: current.body.last_commit_id } });
      expect(fresh.status).toBe(200);
    });

    it('refuses a file that does not exist', async () => {
      const response = await kiln.api('PUT', files('nope.txt'), { token: world.developer.token, body: { branch: 'dev', content: 'x', commit_message: 'm' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: "A file with this name doesn't exist" });
    });
  });
});

describe('DELETE /api/v4/projects/:id/repository/files/:file_path', () => {
  describe('as a developer', () => {
    it('deletes a file in a commit (parameters in the query, as python-gitlab sends them)', async () => {
      const response = await kiln.api('DELETE', files('scripts/run.sh'), { token: world.developer.token, query: { branch: 'feature/run', commit_message: 'Remove run.sh' } });
      expect(response.status).toBe(204);
      expect((await kiln.api('GET', files('scripts/run.sh'), { token: world.developer.token, query: { ref: 'feature/run' } })).status).toBe(404);
      const head = await kiln.api('GET', `/projects/${world.project.id}/repository/commits/${encodeURIComponent('feature/run')}`, { token: world.developer.token });
      expect(head.body.title).toBe('Remove run.sh');
    });

    it('refuses a file that does not exist', async () => {
      const response = await kiln.api('DELETE', files('nope.txt'), { token: world.developer.token, query: { branch: 'dev', commit_message: 'm' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: "A file with this name doesn't exist" });
    });
  });
});
