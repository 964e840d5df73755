// Group repository storage moves end to end with real git: read-only pushes, the state sequence,
// failure injection at every step, and a simulated crash (kill -9) at every step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { setMoveHook, type MoveStep } from '../../src/repositories/move-hooks.js';
import { MOVE_LEASE_MS, releaseJobsOfDeadWorkers } from '../../src/repositories/move-lease.js';
import { MOVE_JOB } from '../../src/repositories/schedule-storage-move.js';
import { hostname } from 'node:os';
import { claimNext } from '../../src/platform/jobs/queue.js';
import { listRefs } from '../../src/repositories/git.js';
import { recoverStorageMoves } from '../../src/repositories/recover-moves.js';
import { beginPush, endPush } from '../../src/repositories/push-leases.js';
import { gitCommands, listenOnLoopback, twoShards } from '../helpers/git.js';

let kiln: TestKiln;
let base: string;
let work: string;
const { run: gitRun, ok } = gitCommands(() => work);
let admin: TestUser;
let alice: TestUser;

const READ_ONLY = 'The repository is temporarily read-only. Please try again later.';
const STEPS: MoveStep[] = ['started', 'copied', 'verified', 'replicated', 'source_deleted'];



function wikiUrl(path: string): string {
  return `${base.replace('http://', `http://alice:${alice.token}@`)}/${path}.wiki.git`;
}

let counter = 0;
async function commitAndPush(dir: string, message: string): Promise<void> {
  counter += 1;
  writeFileSync(join(dir, `page-${counter}.md`), `# ${message}\n`);
  await ok(['add', '.'], dir);
  await ok(['commit', '-q', '-m', message], dir);
  await ok(['push', '-q', 'origin', 'HEAD:main'], dir);
}

/** A group whose wiki has two commits and a tag, on the default shard; returns a working clone. */
async function groupWithWiki(path: string): Promise<{ group: any; dir: string }> {
  const group = await kiln.createGroup(alice, path);
  const dir = join(work, `clone-${path}`);
  await ok(['clone', '-q', wikiUrl(path), dir]);
  await commitAndPush(dir, 'Home');
  await commitAndPush(dir, 'Second page');
  await ok(['tag', 'v1'], dir);
  await ok(['push', '-q', 'origin', 'v1'], dir);
  return { group, dir };
}

async function repositoryOf(groupId: number) {
  return kiln.deps.db.selectFrom('repositories').selectAll().where('container_type', '=', 'group').where('container_id', '=', groupId).executeTakeFirstOrThrow();
}

async function moveOf(id: number) {
  return kiln.deps.db.selectFrom('group_repository_storage_moves').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function readOnly(groupId: number): Promise<boolean> {
  return (await kiln.deps.db.selectFrom('namespaces').select('read_only').where('id', '=', groupId).executeTakeFirstOrThrow()).read_only === 1;
}

async function schedule(groupId: number, destination = 'storage2'): Promise<any> {
  const { status, body } = await kiln.api('POST', `/groups/${groupId}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: destination } });
  expect(status).toBe(201);
  return body;
}

function shardPath(shard: string, diskPath: string): string {
  return join(work, 'shards', shard, diskPath);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-moves-'));
  kiln = await testKiln({ storages: twoShards(work) });
  base = await listenOnLoopback(kiln.app);
  admin = await kiln.createUser('operator', { admin: true });
  alice = await kiln.createUser('alice');
});
afterAll(async () => {
  setMoveHook(kiln.deps, null);
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a group repository storage move', () => {
  it('refuses pushes while scheduled (git prints the read-only sentence), keeps reads, and serves the clone from the new shard afterwards', async () => {
    const { group, dir } = await groupWithWiki('moving');
    const refsBefore = await listRefs(shardPath('default', (await repositoryOf(group.id)).disk_path));
    const move = await schedule(group.id);
    expect(move.state).toBe('scheduled');

    writeFileSync(join(dir, 'during.md'), 'during the move\n');
    await ok(['add', '.'], dir);
    await ok(['commit', '-q', '-m', 'During the move'], dir);
    const refused = await gitRun(['push', 'origin', 'HEAD:main'], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`remote: ${READ_ONLY}`);

    const info = await kiln.request('GET', `/moving.wiki.git/info/refs?service=git-receive-pack`, { headers: { authorization: `Basic ${Buffer.from(`alice:${alice.token}`).toString('base64')}` } });
    expect(info.statusCode).toBe(403);
    expect(info.headers['content-type']).toBe('text/plain');
    expect(info.body.trim()).toBe(READ_ONLY);
    const post = await kiln.request('POST', `/moving.wiki.git/git-receive-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`alice:${alice.token}`).toString('base64')}`, 'content-type': 'application/x-git-receive-pack-request' },
    });
    expect(post.statusCode).toBe(403);
    expect(post.body.trim()).toBe(READ_ONLY);

    const readDuring = await gitRun(['clone', '-q', wikiUrl('moving'), join(work, 'read-during')]);
    expect(readDuring.code, readDuring.stderr).toBe(0);

    await kiln.worker.drain();
    expect((await moveOf(move.id)).state).toBe('finished');
    const repository = await repositoryOf(group.id);
    expect(repository.shard).toBe('storage2');
    expect(existsSync(shardPath('default', repository.disk_path))).toBe(false);
    expect(await listRefs(shardPath('storage2', repository.disk_path))).toEqual(refsBefore);
    expect(await readOnly(group.id)).toBe(false);

    const after = join(work, 'read-after');
    await ok(['clone', '-q', wikiUrl('moving'), after]);
    expect((await ok(['log', '--format=%s', 'main'], after)).trim().split('\n')).toEqual(['Second page', 'Home']);
    const pushed = await gitRun(['push', '-q', 'origin', 'HEAD:main'], dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect((await listRefs(shardPath('storage2', repository.disk_path))).get('refs/heads/main')).toBe((await ok(['rev-parse', 'HEAD'], dir)).trim());

    const api = await kiln.api('GET', `/group_repository_storage_moves/${move.id}`, { token: admin.token });
    expect(api.body.state).toBe('finished');
  });

  it('goes scheduled → started → replicated → finished, with read-only cleared at replication', async () => {
    const { group } = await groupWithWiki('sequence');
    const move = await schedule(group.id);
    const seen: Array<[MoveStep, string, boolean]> = [];
    setMoveHook(kiln.deps, async (step) => {
      seen.push([step, (await moveOf(move.id)).state, await readOnly(group.id)]);
    });
    await kiln.worker.drain();
    setMoveHook(kiln.deps, null);
    expect(seen).toEqual([
      ['started', 'started', true],
      ['copied', 'started', true],
      ['verified', 'started', true],
      ['replicated', 'replicated', false],
      ['source_deleted', 'replicated', false],
    ]);
    expect((await moveOf(move.id)).state).toBe('finished');
  });

  it('to the shard the group is already on fails (GitLab 14.x SameFilesystemError), the group writable and its repository in place', async () => {
    const { group } = await groupWithWiki('same-shard');
    const before = await repositoryOf(group.id);
    const move = await schedule(group.id, 'default');
    await kiln.worker.drain();
    const failed = await moveOf(move.id);
    expect(failed.state).toBe('failed');
    expect(failed.error_message).toMatch(/already on default/);
    expect(await readOnly(group.id)).toBe(false);
    expect((await repositoryOf(group.id)).shard).toBe('default');
    expect(existsSync(join(shardPath('default', before.disk_path), 'HEAD'))).toBe(true);
  });

  it('fails when the copy does not verify, leaving the repository on the source', async () => {
    const { group } = await groupWithWiki('corrupt');
    const move = await schedule(group.id);
    setMoveHook(kiln.deps, async (step) => {
      if (step !== 'copied') return;
      // Lose every object of the copy: git fsck at the destination must notice.
      const destination = shardPath('storage2', (await repositoryOf(group.id)).disk_path);
      rmSync(join(destination, 'objects'), { recursive: true, force: true });
      await import('node:fs/promises').then((fs) => fs.mkdir(join(destination, 'objects')));
    });
    await kiln.worker.drain();
    setMoveHook(kiln.deps, null);
    const failed = await moveOf(move.id);
    expect(failed.state).toBe('failed');
    expect(failed.error_message).toMatch(/fsck|differs/);
    expect((await repositoryOf(group.id)).shard).toBe('default');
    expect(await readOnly(group.id)).toBe(false);
  });
});

describe('pushes in flight when a move starts', () => {
  it('the move waits for them before copying', async () => {
    const { group } = await groupWithWiki('in-flight');
    // A push that passed its read-only check just before the move was scheduled (push-leases.ts).
    const lease = await beginPush(kiln.deps, { type: 'group', id: group.id });
    expect(lease.readOnly).toBe(false);
    const move = await schedule(group.id);
    const running = kiln.worker.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await moveOf(move.id)).state).toBe('started');
    expect(existsSync(shardPath('storage2', (await repositoryOf(group.id)).disk_path))).toBe(false);
    await endPush(kiln.deps, lease.leaseId);
    await running;
    expect((await moveOf(move.id)).state).toBe('finished');
  });

  it('a push that takes its lease after the move was scheduled is refused', async () => {
    const { group } = await groupWithWiki('late-push');
    await schedule(group.id);
    const lease = await beginPush(kiln.deps, { type: 'group', id: group.id });
    expect(lease.readOnly).toBe(true);
    expect(await kiln.deps.db.selectFrom('repository_push_leases').select('id').where('container_id', '=', group.id).execute()).toEqual([]);
    await kiln.worker.drain();
  });

  it('a push lease left by a crashed node expires and no longer holds moves', async () => {
    const { group } = await groupWithWiki('stale-push');
    await beginPush(kiln.deps, { type: 'group', id: group.id });
    kiln.clock.advance(11 * 60_000);
    const move = await schedule(group.id);
    await kiln.worker.drain();
    expect((await moveOf(move.id)).state).toBe('finished');
  });
});

describe('failure injection at each step', () => {
  for (const step of STEPS) {
    it(`an error at "${step}" leaves the group writable and its repository intact where the database says`, async () => {
      const { group, dir } = await groupWithWiki(`fail-${step}`);
      const diskPath = (await repositoryOf(group.id)).disk_path;
      const refs = await listRefs(shardPath('default', diskPath));
      const move = await schedule(group.id);
      setMoveHook(kiln.deps, (at) => {
        if (at === step) throw new Error(`injected failure at ${step}`);
      });
      await kiln.worker.drain();
      setMoveHook(kiln.deps, null);
      const after = await moveOf(move.id);
      const replicated = step === 'replicated' || step === 'source_deleted';
      expect(after.state).toBe(replicated ? 'cleanup_failed' : 'failed');
      expect(after.error_message).toBe(`injected failure at ${step}`);
      expect(await readOnly(group.id)).toBe(false);
      const repository = await repositoryOf(group.id);
      expect(repository.shard).toBe(replicated ? 'storage2' : 'default');
      expect(await listRefs(shardPath(repository.shard, diskPath))).toEqual(refs);
      if (!replicated) expect(existsSync(shardPath('storage2', diskPath))).toBe(false);
      expect((await kiln.api('GET', `/group_repository_storage_moves/${move.id}`, { token: admin.token })).body.state).toBe(replicated ? 'cleanup failed' : 'failed');
      // The group is usable: pushes go through, and it can be moved again.
      await commitAndPush(dir, `after failure at ${step}`);
      expect((await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: 'default' } })).status).toBe(201);
      await kiln.worker.drain();
    });
  }
});

describe('a crash (kill -9) at each step', () => {
  for (const step of STEPS) {
    it(`after a crash at "${step}", the re-claimed job finishes the move with the repository intact on the destination`, async () => {
      const { group } = await groupWithWiki(`crash-${step}`);
      const diskPath = (await repositoryOf(group.id)).disk_path;
      const refs = await listRefs(shardPath('default', diskPath));
      await kiln.worker.drain(); // other features' due jobs, so the next runOnce claims the move
      const move = await schedule(group.id);
      let reached!: () => void;
      const crashed = new Promise<void>((resolve) => (reached = resolve));
      setMoveHook(kiln.deps, (at) => {
        if (at !== step) return;
        reached();
        return new Promise<void>(() => undefined); // this worker never continues, as after kill -9
      });
      void kiln.worker.runOnce();
      await crashed;
      setMoveHook(kiln.deps, null);
      // Nothing is re-claimed while the dead worker's lease runs; afterwards the job resumes.
      expect(await claimNext(kiln.deps.db, kiln.deps.dialect, kiln.clock, 'probe', 1, [MOVE_JOB])).toBeNull();
      kiln.clock.advance(MOVE_LEASE_MS + 1);
      await kiln.worker.drain();
      expect((await moveOf(move.id)).state).toBe('finished');
      const repository = await repositoryOf(group.id);
      expect(repository.shard).toBe('storage2');
      expect(await listRefs(shardPath('storage2', diskPath))).toEqual(refs);
      expect(existsSync(shardPath('default', diskPath))).toBe(false);
      expect(await readOnly(group.id)).toBe(false);
      const leftovers = [
        ...readdirSync(join(shardPath('storage2', diskPath), '..')).filter((name) => name.includes('.tmp-')),
        ...readdirSync(join(shardPath('default', diskPath), '..')).filter((name) => name.includes('.deleted-')),
      ];
      expect(leftovers).toEqual([]);
    });
  }

  it('at start-up, move jobs held by dead processes on this host are released at once, others are not', async () => {
    const now = kiln.clock.now();
    const insert = async (lockedBy: string) =>
      Number(
        (
          await kiln.deps.db
            .insertInto('jobs')
            .values({ kind: MOVE_JOB, payload: '{"move_id":0}', state: 'running', run_at: now, max_attempts: 10, lease_until: now + MOVE_LEASE_MS, locked_by: lockedBy, last_error: null, created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const dead = await insert(`${hostname()}:2147483646:dead`);
    const alive = await insert(`${hostname()}:${process.ppid}:alive`);
    const elsewhere = await insert('another-host:1:x');
    expect(await releaseJobsOfDeadWorkers(kiln.deps, [MOVE_JOB])).toBe(1);
    const leases = Object.fromEntries((await kiln.deps.db.selectFrom('jobs').select(['id', 'lease_until']).where('id', 'in', [dead, alive, elsewhere]).execute()).map((job) => [Number(job.id), Number(job.lease_until)]));
    expect(leases[dead]).toBe(0);
    expect(leases[alive]).toBe(now + MOVE_LEASE_MS);
    expect(leases[elsewhere]).toBe(now + MOVE_LEASE_MS);
    await kiln.deps.db.deleteFrom('jobs').where('id', 'in', [dead, alive, elsewhere]).execute();
  });

  it('a run that stalled past its lease and was re-claimed elsewhere stops without touching the move', async () => {
    const { group } = await groupWithWiki('stalled');
    await kiln.worker.drain(); // other features' due jobs, so the next runOnce claims the move
    const move = await schedule(group.id);
    let resumeStalled!: () => void;
    let reached!: () => void;
    const stalledAt = new Promise<void>((resolve) => (reached = resolve));
    setMoveHook(kiln.deps, (at) => {
      if (at !== 'started') return;
      reached();
      return new Promise<void>((resolve) => (resumeStalled = resolve));
    });
    const stalled = kiln.worker.runOnce();
    await stalledAt;
    setMoveHook(kiln.deps, null);
    // Another node claims the expired job (and is itself about to start work on it).
    kiln.clock.advance(MOVE_LEASE_MS + 1);
    const other = await claimNext(kiln.deps.db, kiln.deps.dialect, kiln.clock, 'other-node', 60_000, [MOVE_JOB]);
    expect(other).not.toBeNull();
    resumeStalled();
    await stalled;
    // The stalled run neither copied nor changed the move.
    expect((await moveOf(move.id)).state).toBe('started');
    expect(existsSync(shardPath('storage2', (await repositoryOf(group.id)).disk_path))).toBe(false);
    kiln.clock.advance(60_001);
    await kiln.worker.drain();
    expect((await moveOf(move.id)).state).toBe('finished');
  });

  it('a move whose job is gone (dead after its retries) gets a new job at start-up', async () => {
    const { group } = await groupWithWiki('orphan');
    const move = await schedule(group.id);
    await kiln.deps.db.updateTable('jobs').set({ state: 'dead' }).where('payload', '=', JSON.stringify({ move_id: move.id })).execute();
    expect(await kiln.worker.drain()).toBe(0);
    expect(await readOnly(group.id)).toBe(true);
    await recoverStorageMoves(kiln.deps);
    await kiln.worker.drain();
    expect((await moveOf(move.id)).state).toBe('finished');
    expect(await readOnly(group.id)).toBe(false);
  });
});
