// Snippet repository storage moves (issue 38; GitLab's lib/api/snippet_repository_storage_moves.rb):
// the six endpoints for administrators, the entity with its BasicSnippet, pagination, refusals; and
// the move itself with real git — the snippet read-only while it moves (a push refused with
// GitLab's sentence, an API change kept in the database and committed after), the repository
// served from the destination afterwards, a failure and a start-up recovery as the group moves have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback, twoShards } from '../helpers/git.js';
import { setMoveHook } from '../../src/repositories/move-hooks.js';
import { recoverStorageMoves } from '../../src/repositories/recover-moves.js';
import { listRefs } from '../../src/repositories/git.js';
import { SNIPPET_MOVES } from '../../src/repositories/move-kinds.js';

let kiln: TestKiln;
let work: string;
let base: string;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
const { run: git, ok } = gitCommands(() => work);
const READ_ONLY = 'The repository is temporarily read-only. Please try again later.';
let clones = 0;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-snippet-moves-'));
  kiln = await testKiln({ storages: twoShards(work) });
  base = await listenOnLoopback(kiln.app);
  admin = await kiln.createUser('operator', { admin: true });
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
}, 120_000);
afterAll(async () => {
  if (kiln) setMoveHook(kiln.deps, null);
  await kiln?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function snippet(title: string, visibility = 'private'): Promise<any> {
  const { status, body } = await kiln.api('POST', '/snippets', { token: alice.token, body: { title, visibility, files: [{ file_path: 'a.txt', content: 'one\n' }] } });
  expect(status).toBe(201);
  return body;
}

async function repositoryOf(snippetId: number) {
  return kiln.deps.db.selectFrom('repositories').selectAll().where('container_type', '=', 'snippet').where('container_id', '=', snippetId).executeTakeFirstOrThrow();
}

async function readOnly(snippetId: number): Promise<boolean> {
  return Number((await kiln.deps.db.selectFrom('snippets').select('repository_read_only').where('id', '=', snippetId).executeTakeFirstOrThrow()).repository_read_only) === 1;
}

async function schedule(snippetId: number, destination = 'storage2'): Promise<any> {
  const { status, body } = await kiln.api('POST', `/snippets/${snippetId}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: destination } });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

async function clone(snippetId: number): Promise<string> {
  const dir = join(work, `clone-${(clones += 1)}`);
  await ok(['clone', '-q', `${base.replace('http://', `http://alice:${alice.token}@`)}/snippets/${snippetId}.git`, dir]);
  return dir;
}

describe('the snippet repository storage moves API', { timeout: 60_000 }, () => {
  it('POST /snippets/:id/repository_storage_moves answers 201 with the move and its BasicSnippet, and makes the snippet read-only', async () => {
    const made = await snippet('Move me');
    const move = await schedule(made.id);
    const { author, web_url, raw_url, ssh_url_to_repo, http_url_to_repo } = made;
    expect(move).toEqual({
      id: expect.any(Number),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      state: 'scheduled',
      source_storage_name: 'default',
      destination_storage_name: 'storage2',
      snippet: {
        id: made.id, title: 'Move me', description: null, visibility: 'private', author, created_at: made.created_at, updated_at: made.updated_at,
        project_id: null, web_url, raw_url, ssh_url_to_repo, http_url_to_repo,
      },
    });
    expect(await readOnly(made.id)).toBe(true);
    // A second move while this one is unfinished is refused as GitLab refuses a read-only container.
    const again = await kiln.api('POST', `/snippets/${made.id}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: 'storage2' } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: { snippet: ['is read-only'] } });
    await kiln.worker.drain();
    expect(await readOnly(made.id)).toBe(false);
    expect((await repositoryOf(made.id)).shard).toBe('storage2');
    const shown = await kiln.api('GET', `/snippet_repository_storage_moves/${move.id}`, { token: admin.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ ...move, state: 'finished', snippet: { ...move.snippet, updated_at: shown.body.snippet.updated_at } });
    const through = await kiln.api('GET', `/snippets/${made.id}/repository_storage_moves/${move.id}`, { token: admin.token });
    expect(through.body.id).toBe(move.id);
  });

  it('lists every move and one snippet\'s, newest first, with GitLab\'s pagination headers', async () => {
    const first = await snippet('Listed one');
    const second = await snippet('Listed two');
    const a = await schedule(first.id);
    await kiln.worker.drain();
    kiln.clock.advance(1000);
    const b = await schedule(second.id);
    await kiln.worker.drain();
    kiln.clock.advance(1000);
    const c = await schedule(first.id, 'default');
    await kiln.worker.drain();
    const all = await kiln.api('GET', '/snippet_repository_storage_moves?per_page=2', { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body.map((move: any) => move.id)).toEqual([c.id, b.id]);
    expect(all.headers['x-per-page']).toBe('2');
    expect(all.headers['x-page']).toBe('1');
    expect(all.headers['x-next-page']).toBe('2');
    expect(all.headers.link).toContain('rel="next"');
    const mine = await kiln.api('GET', `/snippets/${first.id}/repository_storage_moves`, { token: admin.token });
    expect(mine.body.map((move: any) => [move.id, move.state, move.source_storage_name, move.destination_storage_name])).toEqual([
      [c.id, 'finished', 'storage2', 'default'],
      [a.id, 'finished', 'default', 'storage2'],
    ]);
    expect(mine.headers['x-total']).toBe('2');
    // A move of another snippet is not found through this one.
    const other = await kiln.api('GET', `/snippets/${first.id}/repository_storage_moves/${b.id}`, { token: admin.token });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: '404 Not found' });
  });

  it('is for administrators only (401, 403 before the snippet is looked up), and answers GitLab\'s refusals', async () => {
    const made = await snippet('Guarded', 'public');
    for (const [method, url] of [
      ['GET', '/snippet_repository_storage_moves'], ['GET', '/snippet_repository_storage_moves/1'], ['POST', '/snippet_repository_storage_moves'],
      ['GET', `/snippets/${made.id}/repository_storage_moves`], ['GET', `/snippets/${made.id}/repository_storage_moves/1`], ['POST', `/snippets/${made.id}/repository_storage_moves`],
      ['POST', '/snippets/999999/repository_storage_moves'],
    ] as const) {
      expect((await kiln.api(method, url)).status, `${method} ${url}`).toBe(401);
      const refused = await kiln.api(method, url, { token: alice.token, body: { source_storage_name: 'default' } });
      expect(refused.status, `${method} ${url}`).toBe(403);
      expect(refused.body).toEqual({ message: '403 Forbidden' });
    }
    expect(await readOnly(made.id)).toBe(false);
    const missing = await kiln.api('GET', '/snippets/999999/repository_storage_moves', { token: admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Snippet Not Found' });
    expect((await kiln.api('POST', '/snippets/not-a-number/repository_storage_moves', { token: admin.token })).body).toEqual({ message: '404 Snippet Not Found' });
    expect((await kiln.api('GET', '/snippet_repository_storage_moves/999999', { token: admin.token })).body).toEqual({ message: '404 Not found' });
    const nowhere = await kiln.api('POST', `/snippets/${made.id}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: 'nowhere' } });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body).toEqual({ message: { destination_storage_name: ['is not included in the list'] } });
    const bulk = await kiln.api('POST', '/snippet_repository_storage_moves', { token: admin.token, body: { source_storage_name: 'nowhere' } });
    expect(bulk.status).toBe(400);
    expect(bulk.body.error).toMatch(/source_storage_name does not have a valid value/);
    expect((await kiln.api('POST', '/snippet_repository_storage_moves', { token: admin.token })).body.error).toBe('source_storage_name is missing');
    expect(await readOnly(made.id)).toBe(false);
  });

  it('POST /snippet_repository_storage_moves answers 202 and moves every snippet repository on the shard, project snippets too', async () => {
    const project = await kiln.createProject(alice, 'bulk-app');
    const own = await snippet('Bulk personal');
    const ofProject = (await kiln.api('POST', `/projects/${project.id}/snippets`, { token: alice.token, body: { title: 'Bulk project', visibility: 'private', files: [{ file_path: 'p.txt', content: 'p\n' }] } })).body;
    const { status, body } = await kiln.api('POST', '/snippet_repository_storage_moves', { token: admin.token, body: { source_storage_name: 'default', destination_storage_name: 'storage2' } });
    expect(status).toBe(202);
    expect(body).toEqual({ message: '202 Accepted' });
    await kiln.worker.drain();
    for (const made of [own, ofProject]) {
      expect((await repositoryOf(made.id)).shard).toBe('storage2');
      const moves = (await kiln.api('GET', `/snippets/${made.id}/repository_storage_moves`, { token: admin.token })).body;
      expect(moves[0]).toMatchObject({ state: 'finished', source_storage_name: 'default', destination_storage_name: 'storage2', snippet: { id: made.id, project_id: made.project_id } });
    }
    // GET /snippets/all?repository_storage= finds an administrator the snippets a shard holds.
    const stayed = await snippet('Stays on default');
    const onShard = async (shard: string, user = admin) => (await kiln.api('GET', '/snippets/all', { token: user.token, query: { repository_storage: shard, per_page: 100 } })).body.map((found: any) => found.id);
    expect(await onShard('storage2')).toEqual(expect.arrayContaining([own.id, ofProject.id]));
    expect(await onShard('storage2')).not.toContain(stayed.id);
    expect(await onShard('default')).toEqual(expect.arrayContaining([stayed.id]));
    expect(await onShard('default')).not.toContain(own.id);
    // Others' lists are not filtered by it.
    expect(await onShard('default', alice)).toEqual(expect.arrayContaining([own.id, stayed.id]));
    // Group wikis on the shard are not moved by the snippets' bulk move.
    expect(await kiln.deps.db.selectFrom('group_repository_storage_moves').select('id').execute()).toEqual([]);
  });
});

describe('moving a snippet repository with git', { timeout: 90_000 }, () => {
  it('refuses pushes while it moves (GitLab\'s sentence), keeps clones, and serves the repository from the new shard afterwards', async () => {
    const made = await snippet('With git');
    const dir = await clone(made.id);
    const diskPath = (await repositoryOf(made.id)).disk_path;
    const refsBefore = await listRefs(join(work, 'shards', 'default', diskPath));
    let during: Promise<void> = Promise.resolve();
    const move = await schedule(made.id);

    writeFileSync(join(dir, 'a.txt'), 'two\n');
    await ok(['commit', '-q', '-am', 'During the move'], dir);
    const refused = await git(['push', 'origin', 'HEAD:main'], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`remote: ${READ_ONLY}`);
    const post = await kiln.request('POST', `/snippets/${made.id}.git/git-receive-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`alice:${alice.token}`).toString('base64')}`, 'content-type': 'application/x-git-receive-pack-request' },
    });
    expect(post.statusCode).toBe(403);
    expect(post.body.trim()).toBe(READ_ONLY);
    // Someone who may not change the snippet is told that first, as before.
    await kiln.api('PUT', `/snippets/${made.id}`, { token: admin.token, body: { visibility: 'public' } });
    const bobs = await kiln.request('GET', `/snippets/${made.id}.git/info/refs?service=git-receive-pack`, { headers: { authorization: `Basic ${Buffer.from(`bob:${bob.token}`).toString('base64')}` } });
    expect(bobs.body.trim()).toBe('You are not allowed to update this snippet.');

    // While the copy is made, an API change of the files lands in the database; the source repository is untouched.
    setMoveHook(kiln.deps, (step) => {
      if (step !== 'copied') return;
      during = (async () => {
        const put = await kiln.api('PUT', `/snippets/${made.id}`, { token: alice.token, body: { files: [{ action: 'update', file_path: 'a.txt', content: 'three\n' }] } });
        expect(put.status).toBe(200);
        expect(await listRefs(join(work, 'shards', 'default', diskPath))).toEqual(refsBefore);
        const read = await clone(made.id);
        expect(readFileSync(join(read, 'a.txt'), 'utf8')).toBe('one\n');
      })();
      return during;
    });
    await kiln.worker.drain();
    setMoveHook(kiln.deps, null);
    await during;
    expect((await kiln.api('GET', `/snippet_repository_storage_moves/${move.id}`, { token: admin.token })).body.state).toBe('finished');
    expect((await repositoryOf(made.id)).shard).toBe('storage2');
    expect(existsSync(join(work, 'shards', 'default', diskPath))).toBe(false);
    expect(await readOnly(made.id)).toBe(false);

    // The next clone commits what the database kept meanwhile; pushes go through again.
    const after = await clone(made.id);
    expect(readFileSync(join(after, 'a.txt'), 'utf8')).toBe('three\n');
    writeFileSync(join(after, 'b.txt'), 'pushed\n');
    await ok(['add', '.'], after);
    await ok(['commit', '-q', '-m', 'After the move'], after);
    const pushed = await git(['push', '-q', 'origin', 'HEAD:main'], after);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect((await listRefs(join(work, 'shards', 'storage2', diskPath))).get('refs/heads/main')).toBe((await ok(['rev-parse', 'HEAD'], after)).trim());
    expect((await kiln.api('GET', `/snippets/${made.id}`, { token: alice.token })).body.files.map((file: any) => file.path)).toEqual(['a.txt', 'b.txt']);
  });

  it('a failed move leaves the snippet writable on its source, and it can be moved again', async () => {
    const made = await snippet('Failing');
    await clone(made.id);
    const move = await schedule(made.id);
    setMoveHook(kiln.deps, (step) => {
      if (step === 'verified') throw new Error('injected failure at verified');
    });
    await kiln.worker.drain();
    setMoveHook(kiln.deps, null);
    const failed = (await kiln.api('GET', `/snippet_repository_storage_moves/${move.id}`, { token: admin.token })).body;
    expect(failed.state).toBe('failed');
    expect(await readOnly(made.id)).toBe(false);
    expect((await repositoryOf(made.id)).shard).toBe('default');
    expect(existsSync(join(work, 'shards', 'storage2', (await repositoryOf(made.id)).disk_path))).toBe(false);
    await schedule(made.id);
    await kiln.worker.drain();
    expect((await repositoryOf(made.id)).shard).toBe('storage2');
  });

  it('a move whose job is gone gets a new one at start-up (recover-moves), and the snippet is writable again', async () => {
    const made = await snippet('Orphaned move');
    const move = await schedule(made.id);
    await kiln.deps.db.updateTable('jobs').set({ state: 'dead' }).where('kind', '=', SNIPPET_MOVES.moveJob).where('payload', '=', JSON.stringify({ move_id: move.id })).execute();
    expect(await kiln.worker.drain()).toBe(0);
    expect(await readOnly(made.id)).toBe(true);
    await recoverStorageMoves(kiln.deps);
    await kiln.worker.drain();
    expect((await kiln.api('GET', `/snippet_repository_storage_moves/${move.id}`, { token: admin.token })).body.state).toBe('finished');
    expect(await readOnly(made.id)).toBe(false);
  });
});
