// The repositories API (doc/api/repositories.md): tree, blobs, compare, archives in every format
// GitLab serves, merge base and contributors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { commit, create, repositoryWorld, update, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let world: RepositoryWorld;
let work: string;
let c1: any;
let c2: any;
let side: any;

const repo = (suffix: string) => `/projects/${world.project.id}/repository${suffix}`;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-archives-'));
  kiln = await testKiln();
  world = await repositoryWorld(kiln);
  c1 = await commit(kiln, world.owner.token, world.project.id, {
    branch: 'main',
    commit_message: 'One',
    actions: [create('README.md', 'hello\n'), create('docs/guide.md', 'guide\n'), create('docs/api/ref.md', 'ref\n'), create('src/app.ts', 'app\n')],
  });
  kiln.clock.advance(60_000);
  c2 = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'Two', author_name: 'Zed', author_email: 'zed@example.com', actions: [update('README.md', 'hello again\n')] });
  side = await commit(kiln, world.owner.token, world.project.id, { branch: 'side', start_sha: c1.id, commit_message: 'Side', author_name: 'Zed', author_email: 'zed@example.com', actions: [create('side.txt', 'side\n')] });
});
afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('GET /api/v4/projects/:id/repository/tree', () => {
  describe('as a reporter', () => {
    it('lists the root of the default branch in git’s order', async () => {
      const response = await kiln.api('GET', repo('/tree'), { token: world.reporter.token });
      expect(response.status).toBe(200);
      expect(response.body.map((entry: any) => [entry.name, entry.type, entry.path, entry.mode])).toEqual([
        ['README.md', 'blob', 'README.md', '100644'],
        ['docs', 'tree', 'docs', '040000'],
        ['src', 'tree', 'src', '040000'],
      ]);
      expect(response.body[0].id).toMatch(/^[0-9a-f]{40}$/);
    });

    it('lists a directory, recursively, at another ref', async () => {
      const response = await kiln.api('GET', repo('/tree'), { token: world.reporter.token, query: { path: 'docs', recursive: true, ref: 'side' } });
      expect(response.body.map((entry: any) => entry.path)).toEqual(['docs/api', 'docs/api/ref.md', 'docs/guide.md']);
    });

    it('pages with offsets by default', async () => {
      const response = await kiln.api('GET', repo('/tree'), { token: world.reporter.token, query: { recursive: true, per_page: 2, page: 2 } });
      expect(response.body.map((entry: any) => entry.path)).toEqual(['docs/api', 'docs/api/ref.md']);
      expect(response.headers['x-total']).toBe('7');
    });

    it('pages with keysets: directories first, the next page named by the last id', async () => {
      const first = await kiln.api('GET', repo('/tree'), { token: world.reporter.token, query: { pagination: 'keyset', per_page: 2, recursive: true } });
      expect(first.body.map((entry: any) => entry.path)).toEqual(['docs', 'docs/api']);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1];
      expect(next).toContain(`page_token=${first.body[1].id}`);
      expect(first.headers['x-total']).toBeUndefined();
      const second = await kiln.request('GET', next.replace('http://kiln.test', ''), { token: world.reporter.token });
      expect(JSON.parse(second.body).map((entry: any) => entry.path)).toEqual(['src', 'README.md']);
    });

    it('answers everything without pages with pagination=none, only when recursive', async () => {
      const all = await kiln.api('GET', repo('/tree'), { token: world.reporter.token, query: { pagination: 'none', recursive: true } });
      expect(all.body).toHaveLength(7);
      const refused = await kiln.api('GET', repo('/tree'), { token: world.reporter.token, query: { pagination: 'none' } });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'pagination cannot be "none" unless "recursive" is true' });
    });

    it.each([[{ ref: 'nope' }], [{ path: 'nope' }], [{ path: 'README.md' }], [{ path: '../x' }]])('answers 404 Tree Not Found for %j', async (query) => {
      const response = await kiln.api('GET', repo('/tree'), { token: world.reporter.token, query });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Tree Not Found' });
    });
  });

  describe('as a guest of a private project', () => {
    it('is refused', async () => {
      expect((await kiln.api('GET', repo('/tree'), { token: world.guest.token })).status).toBe(403);
    });
  });
});

describe('GET /api/v4/projects/:id/repository/blobs/:sha', () => {
  it('answers a blob by id, and raw', async () => {
    const tree = await kiln.api('GET', repo('/tree'), { token: world.reporter.token });
    const id = tree.body[0].id;
    const blob = await kiln.api('GET', repo(`/blobs/${id}`), { token: world.reporter.token });
    expect(blob.body).toEqual({ size: 12, encoding: 'base64', content: Buffer.from('hello again\n').toString('base64'), sha: id });
    const raw = await kiln.request('GET', `/api/v4${repo(`/blobs/${id}/raw`)}`, { token: world.reporter.token });
    expect(raw.body).toBe('hello again\n');
    const missing = await kiln.api('GET', repo(`/blobs/${c1.id}`), { token: world.reporter.token });
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Blob Not Found' } });
  });
});

describe('GET /api/v4/projects/:id/repository/compare', () => {
  it('compares from the merge base: the commits of from..to oldest first and their diff', async () => {
    const response = await kiln.api('GET', repo('/compare'), { token: world.reporter.token, query: { from: 'side', to: 'main' } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['commit', 'commits', 'diffs', 'compare_timeout', 'compare_same_ref', 'web_url']);
    expect(response.body.commits.map((item: any) => item.title)).toEqual(['Two']);
    expect(response.body.commit.id).toBe(c2.id);
    expect(response.body.diffs.map((diff: any) => diff.new_path)).toEqual(['README.md']);
    expect(response.body).toMatchObject({ compare_timeout: false, compare_same_ref: false, web_url: `http://kiln.test/${world.project.path_with_namespace}/-/compare/${side.id}...${c2.id}` });
  });

  it('compares the two trees directly with straight=true', async () => {
    const response = await kiln.api('GET', repo('/compare'), { token: world.reporter.token, query: { from: 'side', to: 'main', straight: true } });
    expect(response.body.diffs.map((diff: any) => [diff.new_path, diff.deleted_file])).toEqual([['README.md', false], ['side.txt', true]]);
  });

  it('says when both refs are the same commit', async () => {
    const response = await kiln.api('GET', repo('/compare'), { token: world.reporter.token, query: { from: c2.id, to: 'main' } });
    expect(response.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true });
  });

  it('answers 404 Ref Not Found for an unknown ref, and names missing parameters', async () => {
    expect((await kiln.api('GET', repo('/compare'), { token: world.reporter.token, query: { from: 'nope', to: 'main' } })).body).toEqual({ message: '404 Ref Not Found' });
    expect((await kiln.api('GET', repo('/compare'), { token: world.reporter.token })).body).toEqual({ error: 'from is missing, to is missing' });
  });
});

describe('GET /api/v4/projects/:id/repository/archive[.format]', () => {
  const listing = (file: string, format: string): string[] => {
    const args = format === 'zip' ? ['unzip', ['-Z1', file]] : ['tar', [format === 'tar.bz2' ? '-tjf' : format === 'tar.gz' ? '-tzf' : '-tf', file]];
    return execFileSync(args[0] as string, args[1] as string[]).toString().split('\n').filter((line) => line !== '' && !line.endsWith('/'));
  };

  it.each([
    ['', 'tar.gz'], ['.tar.gz', 'tar.gz'], ['.tgz', 'tar.gz'], ['.gz', 'tar.gz'], ['.tar.bz2', 'tar.bz2'], ['.tbz', 'tar.bz2'],
    ['.tbz2', 'tar.bz2'], ['.tb2', 'tar.bz2'], ['.bz2', 'tar.bz2'], ['.tar', 'tar'], ['.zip', 'zip'],
  ])('serves archive%s as a .%s of the default branch', async (suffix, extension) => {
    const response = await kiln.request('GET', `/api/v4${repo(`/archive${suffix}`)}`, { token: world.reporter.token });
    expect(response.statusCode).toBe(200);
    const prefix = `app-main-${c2.id}`;
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${prefix}.${extension}"`);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    const file = join(work, `archive${suffix || '-default'}.${extension}`);
    writeFileSync(file, response.rawPayload);
    expect(listing(file, extension).sort()).toEqual([`${prefix}/README.md`, `${prefix}/docs/api/ref.md`, `${prefix}/docs/guide.md`, `${prefix}/src/app.ts`]);
  });

  it('archives a ref (sha) and a path, with format as a parameter', async () => {
    const response = await kiln.request('GET', `/api/v4${repo('/archive')}?sha=side&path=docs&format=zip`, { token: world.reporter.token });
    const prefix = `app-side-${side.id}-docs`;
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${prefix}.zip"`);
    const file = join(work, 'side.zip');
    writeFileSync(file, response.rawPayload);
    expect(listing(file, 'zip').sort()).toEqual([`${prefix}/docs/api/ref.md`, `${prefix}/docs/guide.md`]);
  });

  it('leaves out exclude_paths (comma-separated)', async () => {
    const response = await kiln.request('GET', `/api/v4${repo('/archive.tar')}?exclude_paths=docs/api,src`, { token: world.reporter.token });
    const file = join(work, 'excluded.tar');
    writeFileSync(file, response.rawPayload);
    const prefix = `app-main-${c2.id}`;
    expect(listing(file, 'tar').sort()).toEqual([`${prefix}/README.md`, `${prefix}/docs/guide.md`]);
  });

  it.each([[{ sha: 'nope' }], [{ path: 'nope' }]])('answers 404 File Not Found for %j', async (query) => {
    const response = await kiln.api('GET', repo('/archive'), { token: world.reporter.token, query });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 File Not Found' });
  });

  it('answers 404 for a format GitLab does not serve', async () => {
    expect((await kiln.api('GET', repo('/archive.rar'), { token: world.reporter.token })).status).toBe(404);
  });

  it('is refused to a guest of a private project', async () => {
    expect((await kiln.api('GET', repo('/archive.zip'), { token: world.guest.token })).status).toBe(403);
  });
});

describe('GET /api/v4/projects/:id/repository/merge_base', () => {
  it('answers the common ancestor of refs[] (python-gitlab’s form) and of comma-separated refs', async () => {
    const arrays = await kiln.request('GET', `/api/v4${repo('/merge_base')}?refs[]=main&refs[]=side`, { token: world.reporter.token });
    expect(JSON.parse(arrays.body)).toMatchObject({ id: c1.id, title: 'One' });
    const csv = await kiln.api('GET', repo('/merge_base'), { token: world.reporter.token, query: { refs: `main,${side.id}` } });
    expect(csv.body.id).toBe(c1.id);
  });

  it.each([
    ['refs[]=main', 400, { message: 'Provide at least 2 refs' }],
    ['refs[]=main&refs[]=nope', 400, { message: 'Could not find ref: nope' }],
    ['refs[]=no1&refs[]=no2', 400, { message: 'Could not find refs: no1, no2' }],
    ['', 400, { error: 'refs is missing' }],
  ])('answers %s with %i', async (query, status, body) => {
    const response = await kiln.request('GET', `/api/v4${repo('/merge_base')}?${query}`, { token: world.reporter.token });
    expect(response.statusCode).toBe(status);
    expect(JSON.parse(response.body)).toEqual(body);
  });
});

describe('GET /api/v4/projects/:id/repository/contributors', () => {
  it('counts commits per author e-mail, fewest first by default', async () => {
    await commit(kiln, world.owner.token, world.project.id, { branch: 'busy', start_branch: 'main', actions: [create('busy-1.txt')] });
    await commit(kiln, world.owner.token, world.project.id, { branch: 'busy', actions: [create('busy-2.txt')] });
    const response = await kiln.api('GET', repo('/contributors'), { token: world.reporter.token, query: { ref: 'busy' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { name: 'Zed', email: 'zed@example.com', commits: 1, additions: 0, deletions: 0 },
      { name: `User ${world.owner.username}`, email: `${world.owner.username}@example.com`, commits: 3, additions: 0, deletions: 0 },
    ]);
    const desc = await kiln.api('GET', repo('/contributors'), { token: world.reporter.token, query: { ref: 'busy', sort: 'desc' } });
    expect(desc.body.map((item: any) => item.commits)).toEqual([3, 1]);
  });

  it('orders by name descending and counts another ref', async () => {
    const response = await kiln.api('GET', repo('/contributors'), { token: world.reporter.token, query: { order_by: 'name', sort: 'desc', ref: 'side' } });
    expect(response.body.map((item: any) => [item.name, item.commits])).toEqual([['Zed', 1], [`User ${world.owner.username}`, 1]]);
  });
});
