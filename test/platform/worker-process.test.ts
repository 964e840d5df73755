// kill -9 of a worker process while a job runs: the job stays `running` with a lease, and another
// worker process runs it again once the lease (KILN_JOB_LEASE_MS) has expired. Spawns the built
// code (dist/, `npm test` builds it first when sources changed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { enqueue } from '../../src/platform/jobs/queue.js';
import { systemClock } from '../../src/platform/clock.js';
import { childDatabaseEnv, waitFor } from './process-helpers.js';

const FIXTURE = new URL('./fixtures/sample-job-node.mjs', import.meta.url).pathname;

let testDb: TestDatabase;

function startNode(): { child: ChildProcess; ready: Promise<void>; exited: Promise<number | null>; output: () => string } {
  const child = spawn(process.execPath, [FIXTURE], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      KILN_DATA_DIR: testDb.dataDir,
      KILN_INITIAL_ROOT_PASSWORD: 'root-password-1',
      KILN_JOB_LEASE_MS: '1500',
      KILN_WORKER_POLL_MS: '50',
      KILN_LOG_LEVEL: 'warn',
      ...childDatabaseEnv(testDb),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('worker ready')) resolve();
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`worker exited early (${code}): ${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => output };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  await migrateToLatest(testDb.database);
});
afterAll(async () => {
  await testDb.database.close();
  await testDb.drop();
});

describe('a worker process killed with SIGKILL while a job runs', () => {
  it('leaves the job running under its lease; another worker re-runs it after the lease expires', { timeout: 60_000 }, async () => {
    const logFile = join(testDb.dataDir, 'sample-job.log');
    const first = startNode();
    await first.ready;
    const jobId = await enqueue(testDb.database.db, systemClock, 'platform.sample', { id: 1 });
    await waitFor('the first attempt to start', () => existsSync(logFile) && readFileSync(logFile, 'utf8').includes('started 1 attempt 1'));
    first.child.kill('SIGKILL');
    await first.exited;

    const orphan = await testDb.database.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(orphan).toMatchObject({ state: 'running', attempts: 1 });
    expect(Number(orphan.lease_until)).toBeGreaterThan(0);

    const second = startNode();
    try {
      await second.ready;
      const done = await waitFor('the job to finish', async () => {
        const row = await testDb.database.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
        return row.state === 'done' ? row : undefined;
      });
      expect(done.attempts).toBe(2);
      expect(done.locked_by).not.toBe(orphan.locked_by);
      const lines = readFileSync(logFile, 'utf8').trim().split('\n');
      expect(lines).toEqual([
        `started 1 attempt 1 pid ${first.child.pid}`,
        `started 1 attempt 2 pid ${second.child.pid}`,
        `finished 1 attempt 2 pid ${second.child.pid}`,
      ]);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });
});
