// GET /sidekiq/* (lib/api/sidekiq_metrics.rb) over Kiln's job queue: one queue (`default`), this
// process's workers even when idle, other nodes' workers by the jobs they hold, counts by state.
// python-gitlab's functional suite polls process_metrics before reading what a job wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let user: TestUser;

async function job(state: 'queued' | 'running' | 'done' | 'dead', runAt: number, extra: { locked_by?: string; lease_until?: number; last_error?: string } = {}) {
  const now = kiln.deps.clock.now();
  // Kinds no worker handles: the started worker never claims them.
  await kiln.deps.db.insertInto('jobs').values({ kind: 'probe', payload: '{}', state, run_at: runAt, attempts: 1, max_attempts: 5, created_at: now, updated_at: now, ...extra }).execute();
}

beforeAll(async () => {
  kiln = await testKiln();
  user = await kiln.createUser('lena');
  // Only the probes below: the jobs that creating the user queued would change the counts.
  await kiln.deps.db.deleteFrom('jobs').execute();
  const now = kiln.deps.clock.now();
  await job('queued', now - 7_500);
  await job('queued', now - 1_000);
  await job('queued', now + 60_000); // not due yet: not in the backlog, but enqueued
  await job('running', now - 20_000, { locked_by: 'node-b:4242:0a1b2c3d', lease_until: now + 30_000 });
  await job('running', now - 20_000, { locked_by: 'node-c:77:ffffffff', lease_until: now - 1 }); // lease ran out: its worker died
  await job('done', now - 50_000, { last_error: 'timeout' });
  await job('done', now - 50_000);
  await job('dead', now - 50_000, { last_error: 'gone' });
});
afterAll(() => kiln.close());

describe('GET /sidekiq/*', () => {
  it('queue_metrics: the due jobs of the one queue and how long the oldest has waited, in whole seconds', async () => {
    const response = await kiln.api('GET', '/sidekiq/queue_metrics', { token: kiln.root.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ queues: { default: { backlog: 2, latency: 7 } } });
  });

  it('process_metrics: the idle worker of this process and a worker of another node holding a job', async () => {
    kiln.worker.start();
    try {
      const response = await kiln.api('GET', '/sidekiq/process_metrics', { token: kiln.root.token });
      expect(response.status).toBe(200);
      const [local, other] = response.body.processes;
      expect(response.body.processes).toHaveLength(2);
      expect(local).toMatchObject({ pid: process.pid, tag: 'kiln', queues: ['default'], labels: [], concurrency: 1, busy: 0, started_at: '2026-11-22T08:00:00.000Z' });
      expect(typeof local.hostname).toBe('string');
      expect(other).toEqual({ hostname: 'node-b', pid: 4242, tag: 'kiln', started_at: null, queues: ['default'], labels: [], concurrency: 1, busy: 1 });
    } finally {
      await kiln.worker.stop();
    }
    const stopped = await kiln.api('GET', '/sidekiq/process_metrics', { token: kiln.root.token });
    expect(stopped.body.processes.map((entry: { hostname: string }) => entry.hostname)).toEqual(['node-b']);
  });

  it('job_stats and compound_metrics count the jobs by state', async () => {
    const stats = await kiln.api('GET', '/sidekiq/job_stats', { token: kiln.root.token });
    expect(stats.body).toEqual({ jobs: { processed: 3, failed: 2, enqueued: 3, dead: 1 } });
    const compound = await kiln.api('GET', '/sidekiq/compound_metrics', { token: kiln.root.token });
    expect(compound.status).toBe(200);
    expect(Object.keys(compound.body).sort()).toEqual(['jobs', 'processes', 'queues']);
    expect(compound.body.jobs).toEqual(stats.body.jobs);
  });

  it('is for administrators only', async () => {
    expect((await kiln.api('GET', '/sidekiq/job_stats', { token: user.token })).status).toBe(403);
    expect((await kiln.api('GET', '/sidekiq/queue_metrics')).status).toBe(401);
  });
});
