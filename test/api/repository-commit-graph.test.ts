// The commit-graph with changed-path Bloom filters (issue 35; src/repositories/housekeeping/commit-graph.ts):
// written after every push by a background job (not in the push's request), as a new layer for the
// pushed commits, replacing a graph that has no filters, and rewritten whole by housekeeping; a lock
// left by a writer that died does not stop it once stale. Git's
// own trace of a path-limited `git log` says whether every commit it walked had a filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { repositoryPath } from '../../src/repositories/shards.js';
import { hasBloomChunks, hasCommitGraphWithBloomFilters, STALE_LOCK_MS, writeCommitGraph } from '../../src/repositories/housekeeping/commit-graph.js';
import { COMMIT_GRAPH_JOB } from '../../src/repositories/housekeeping/commit-graph-job.js';
import { bundleRepository, restoreBundle } from '../../src/operations/repository-bundles.js';

let kiln: TestKiln;
let owner: TestUser;
let work: string;
let base: string;
const { ok } = gitCommands(() => work);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-commit-graph-'));
  kiln = await testKiln();
  base = await listenOnLoopback(kiln.app);
  owner = await kiln.createUser('owner');
}, 60_000);

afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The commits of one parent whose filter git asked (all of them but the root, when the graph has them all). */
const filtered = (statistics: BloomStatistics | null) => (statistics ? statistics.maybe + statistics.definitely_not : 0);

/** A project and a clone with `commits` commits, each changing `notes.txt` and every third `other.txt`. */
async function projectWithClone(path: string, commits: number) {
  const project = await kiln.createProject(owner, path);
  const clone = join(work, path);
  await ok(['init', '-q', clone]);
  for (let index = 0; index < commits; index += 1) await commit(clone, index);
  const remote = `${base.replace('http://', `http://owner:${owner.token}@`)}/owner/${path}.git`;
  return { project, clone, remote };
}

async function commit(clone: string, index: number) {
  writeFileSync(join(clone, 'notes.txt'), `version ${index}\n`);
  if (index % 3 === 0) writeFileSync(join(clone, 'other.txt'), `other ${index}\n`);
  await ok(['add', '-A'], clone);
  await ok(['commit', '-q', '-m', `Change ${index}`], clone);
}

async function gitDirOf(project: { id: number }): Promise<string> {
  const row = await kiln.deps.db.selectFrom('repositories').selectAll().where('container_type', '=', 'project').where('container_id', '=', project.id).executeTakeFirstOrThrow();
  return repositoryPath(kiln.config.storages, row.shard, row.disk_path);
}

interface BloomStatistics {
  filter_not_present: number;
  maybe: number;
  definitely_not: number;
}

/**
 * Git's Bloom filter statistics for `git log -- other.txt` in the bare repository (null when it used
 * no filters at all). Git asks the filter of every commit of one parent that is in the graph: a
 * commit outside it counts nowhere, one in it without a filter as `filter_not_present`.
 */
function bloomStatistics(gitDir: string): Promise<BloomStatistics | null> {
  return new Promise((resolve, reject) => {
    execFile('git', ['--git-dir', gitDir, 'log', '--format=%H', 'HEAD', '--', 'other.txt'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', HOME: work, GIT_TRACE2_PERF: '1' } }, (error, _stdout, stderr) => {
      if (error) return reject(error);
      const line = /bloom\s*\|\s*statistics:(\{.*\})/.exec(stderr);
      resolve(line ? JSON.parse(line[1]) : null);
    });
  });
}

const chainLayers = (gitDir: string) => {
  const chain = join(gitDir, 'objects', 'info', 'commit-graphs', 'commit-graph-chain');
  return existsSync(chain) ? readFileSync(chain, 'utf8').split('\n').filter((line) => line !== '').length : 0;
};

async function unfinishedJobs() {
  return kiln.deps.db.selectFrom('jobs').select(['state', 'last_error']).where('kind', '=', COMMIT_GRAPH_JOB).where('state', '!=', 'done').execute();
}

describe('the commit-graph after a push', { timeout: 120_000 }, () => {
  it('is written by the job the push queues, with a Bloom filter for every pushed commit, and grows by a layer a push', async () => {
    const { project, clone, remote } = await projectWithClone('walked', 6);
    await ok(['push', '-q', remote, 'main'], clone);
    const gitDir = await gitDirOf(project);
    // The push answered before the graph was written: its job is still queued.
    expect(await hasCommitGraphWithBloomFilters(gitDir)).toBe(false);
    expect(await bloomStatistics(gitDir)).toBeNull();
    expect(await unfinishedJobs()).toEqual([{ state: 'queued', last_error: null }]);
    await kiln.worker.drain();
    expect(await unfinishedJobs()).toEqual([]);
    expect(await hasCommitGraphWithBloomFilters(gitDir)).toBe(true);
    // Every commit of the walk had its filter, and the filters ruled out the ones that did not touch the path.
    const first = await bloomStatistics(gitDir);
    expect(first).toMatchObject({ filter_not_present: 0 });
    expect(filtered(first)).toBe(5);
    expect(first!.definitely_not).toBeGreaterThan(0);
    await ok(['commit-graph', 'verify', '--no-progress'], gitDir);

    // Two commits: a layer of their own (git merges a layer into the one below when it is more than half its size).
    for (let index = 6; index < 8; index += 1) await commit(clone, index);
    await ok(['push', '-q', remote, 'main'], clone);
    // The new commits have no filter until the job runs, then they do, in a layer of their own.
    expect(filtered(await bloomStatistics(gitDir))).toBe(5);
    await kiln.worker.drain();
    expect(await bloomStatistics(gitDir)).toMatchObject({ filter_not_present: 0 });
    expect(filtered(await bloomStatistics(gitDir))).toBe(7);
    expect(chainLayers(gitDir)).toBe(2);
    expect(await hasCommitGraphWithBloomFilters(gitDir)).toBe(true);
    await ok(['commit-graph', 'verify', '--no-progress'], gitDir);
  });

  it('replaces a graph written without Bloom filters, rather than adding a layer of filters for the new commits only', async () => {
    const { project, clone, remote } = await projectWithClone('filterless', 6);
    await ok(['push', '-q', remote, 'main'], clone);
    const gitDir = await gitDirOf(project);
    await kiln.deps.db.deleteFrom('jobs').where('kind', '=', COMMIT_GRAPH_JOB).where('state', '=', 'queued').execute();
    // A graph as git's own gc or an older Kiln wrote it: no filters.
    await ok(['commit-graph', 'write', '--reachable', '--no-changed-paths'], gitDir);
    expect(await hasCommitGraphWithBloomFilters(gitDir)).toBe(false);
    await commit(clone, 6);
    await ok(['push', '-q', remote, 'main'], clone);
    await kiln.worker.drain();
    expect(await bloomStatistics(gitDir)).toMatchObject({ filter_not_present: 0 });
    expect(filtered(await bloomStatistics(gitDir))).toBe(6);
    expect(chainLayers(gitDir)).toBe(1);
    expect(existsSync(join(gitDir, 'objects', 'info', 'commit-graph'))).toBe(false);
  });

  it('is written anew as one layer by housekeeping, git gc writing none of its own', async () => {
    const { project, clone, remote } = await projectWithClone('housekept', 3);
    await ok(['push', '-q', remote, 'main'], clone);
    await kiln.worker.drain();
    await commit(clone, 3);
    await ok(['push', '-q', remote, 'main'], clone);
    await kiln.worker.drain();
    const gitDir = await gitDirOf(project);
    expect(chainLayers(gitDir)).toBe(2);
    expect((await kiln.api('POST', `/projects/${project.id}/housekeeping`, { token: owner.token })).status).toBe(201);
    await kiln.worker.drain();
    expect(chainLayers(gitDir)).toBe(1);
    expect(existsSync(join(gitDir, 'objects', 'info', 'commit-graph'))).toBe(false);
    expect(await bloomStatistics(gitDir)).toMatchObject({ filter_not_present: 0 });
    expect(filtered(await bloomStatistics(gitDir))).toBe(3);
  });

  it('removes a lock left by a writer that died once it is stale, and leaves a live writer\'s', async () => {
    const { project, clone, remote } = await projectWithClone('locked', 3);
    await ok(['push', '-q', remote, 'main'], clone);
    await kiln.worker.drain();
    const gitDir = await gitDirOf(project);
    await commit(clone, 3);
    await ok(['push', '-q', remote, 'main'], clone);
    const lock = join(gitDir, 'objects', 'info', 'commit-graphs', 'commit-graph-chain.lock');
    writeFileSync(lock, '');
    // A fresh lock is a live writer's: git refuses, and the lock stays.
    await expect(writeCommitGraph(gitDir)).rejects.toThrow();
    expect(existsSync(lock)).toBe(true);
    const past = new Date(Date.now() - STALE_LOCK_MS - 60_000);
    utimesSync(lock, past, past);
    await writeCommitGraph(gitDir);
    expect(existsSync(lock)).toBe(false);
    expect(chainLayers(gitDir)).toBe(2);
  });

  it('is written by a restore from a backup, whose bundle carries none', async () => {
    const { project, clone, remote } = await projectWithClone('restored', 4);
    await ok(['push', '-q', remote, 'main'], clone);
    const bundled = await bundleRepository(await gitDirOf(project), join(work, 'restored.bundle'));
    const destination = join(work, 'restored.git');
    await restoreBundle(join(work, 'restored.bundle'), destination, bundled.head);
    expect(await hasCommitGraphWithBloomFilters(destination)).toBe(true);
    expect(filtered(await bloomStatistics(destination))).toBe(3);
  });

  it("reads a commit-graph file's chunk table", () => {
    const table = (ids: string[]) => {
      const start = Buffer.alloc(8 + (ids.length + 1) * 12);
      start.write('CGPH', 0, 'latin1');
      start[4] = 1;
      start[5] = 1;
      start[6] = ids.length;
      ids.forEach((id, row) => start.write(id, 8 + row * 12, 'latin1'));
      return start;
    };
    expect(hasBloomChunks(table(['OIDF', 'OIDL', 'CDAT', 'BIDX', 'BDAT']))).toBe(true);
    expect(hasBloomChunks(table(['OIDF', 'OIDL', 'CDAT', 'GDA2']))).toBe(false);
    expect(hasBloomChunks(table(['OIDF', 'OIDL', 'CDAT', 'BIDX', 'BDAT']).subarray(0, 40))).toBe(false);
    expect(hasBloomChunks(Buffer.from('not a graph at all'))).toBe(false);
  });
});
