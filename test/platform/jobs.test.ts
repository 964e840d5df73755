// The durable job queue (docs/architecture.md "Background jobs"): transactional enqueue, atomic claims,
// retry with backoff, a visible dead state, lease expiry, and the housekeeping job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { testKiln, testSecrets, type TestKiln } from '../helpers/kiln.js';
import { inTransaction } from '../../src/platform/db/database.js';
import { backoffMs, claimNext, enqueue, markDone } from '../../src/platform/jobs/queue.js';
import { Worker, type JobHandler } from '../../src/platform/jobs/worker.js';
import { BUSY_REQUESTS, requestActivity } from '../../src/platform/jobs/pacing.js';
import { startKiln, type Kiln } from '../../src/bootstrap.js';
import { HOUSEKEEPING_JOB, HOUSEKEEPING_INTERVAL_MS, pruneRateLimits } from '../../src/platform/jobs/housekeeping.js';
import { hit } from '../../src/platform/rate-limit.js';

let kiln: TestKiln;

beforeAll(async () => {
  kiln = await testKiln();
});
afterAll(() => kiln.close());

const jobsOf = (kind: string) => kiln.deps.db.selectFrom('jobs').selectAll().where('kind', '=', kind).orderBy('id').execute();

describe('enqueue', () => {
  it('inside a transaction that rolls back leaves no job behind', async () => {
    await expect(
      inTransaction(kiln.deps.db, async (trx) => {
        await enqueue(trx, kiln.clock, 'test.rollback', { id: 1 });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await jobsOf('test.rollback')).toEqual([]);
  });

  it('inside a transaction that commits leaves one queued job carrying the payload', async () => {
    await inTransaction(kiln.deps.db, (trx) => enqueue(trx, kiln.clock, 'test.commit', { id: 7 }));
    const [job] = await jobsOf('test.commit');
    expect(job).toMatchObject({ state: 'queued', attempts: 0, payload: '{"id":7}' });
  });
});

describe('Worker.runOnce', () => {
  it('runs a due job once and marks it done', async () => {
    const seen: unknown[] = [];
    const worker = new Worker(kiln.deps, { 'test.once': async (_deps, payload) => void seen.push(payload) });
    await enqueue(kiln.deps.db, kiln.clock, 'test.once', { id: 3 });
    expect(await worker.runOnce()).toBe(true);
    expect(await worker.runOnce()).toBe(false);
    expect(seen).toEqual([{ id: 3 }]);
    expect((await jobsOf('test.once'))[0].state).toBe('done');
  });

  it('does not run a job before its run_at', async () => {
    const worker = new Worker(kiln.deps, { 'test.later': async () => undefined });
    await enqueue(kiln.deps.db, kiln.clock, 'test.later', {}, { runAt: kiln.clock.now() + 5000 });
    expect(await worker.runOnce()).toBe(false);
    kiln.clock.advance(5000);
    expect(await worker.runOnce()).toBe(true);
  });

  it('retries a failing job with exponential backoff, then succeeds', async () => {
    let calls = 0;
    const worker = new Worker(kiln.deps, {
      'test.flaky': async () => {
        calls += 1;
        if (calls < 3) throw new Error(`boom ${calls}`);
      },
    });
    await enqueue(kiln.deps.db, kiln.clock, 'test.flaky', {});
    expect(await worker.runOnce()).toBe(true);
    let [job] = await jobsOf('test.flaky');
    expect(job).toMatchObject({ state: 'queued', attempts: 1, run_at: kiln.clock.now() + 1000 });
    expect(job.last_error).toContain('boom 1');
    expect(await worker.runOnce()).toBe(false);
    kiln.clock.advance(1000);
    expect(await worker.runOnce()).toBe(true);
    [job] = await jobsOf('test.flaky');
    expect(job).toMatchObject({ state: 'queued', attempts: 2, run_at: kiln.clock.now() + 2000 });
    kiln.clock.advance(2000);
    expect(await worker.runOnce()).toBe(true);
    [job] = await jobsOf('test.flaky');
    expect(job).toMatchObject({ state: 'done', attempts: 3 });
    expect(calls).toBe(3);
  });

  it('after max_attempts leaves the job dead and visible, never to run again', async () => {
    let calls = 0;
    const worker = new Worker(kiln.deps, {
      'test.doomed': async () => {
        calls += 1;
        throw new Error('always');
      },
    });
    await enqueue(kiln.deps.db, kiln.clock, 'test.doomed', {}, { maxAttempts: 2 });
    await worker.runOnce();
    kiln.clock.advance(backoffMs(1));
    await worker.runOnce();
    kiln.clock.advance(24 * 3600_000);
    expect(await worker.runOnce()).toBe(false);
    const [job] = await jobsOf('test.doomed');
    expect(job).toMatchObject({ state: 'dead', attempts: 2 });
    expect(job.last_error).toContain('always');
    expect(calls).toBe(2);
    const metrics = await kiln.deps.metrics.registry.metrics();
    expect(metrics).toContain('kiln_jobs_total{kind="test.doomed",outcome="failed"} 2');
  });

  it('backoff doubles from one second and stops growing at ten minutes', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(30)).toBe(600_000);
  });
});

describe('leases', () => {
  it('a running job whose lease expired is claimed again by another worker; the dead worker\'s late completion is ignored', async () => {
    await enqueue(kiln.deps.db, kiln.clock, 'test.lease', { id: 1 });
    const first = await claimNext(kiln.deps.db, kiln.deps.dialect, kiln.clock, 'worker-a', 1000, ['test.lease']);
    expect(first).not.toBeNull();
    expect(await claimNext(kiln.deps.db, kiln.deps.dialect, kiln.clock, 'worker-b', 1000, ['test.lease'])).toBeNull();
    kiln.clock.advance(1001);
    const second = await claimNext(kiln.deps.db, kiln.deps.dialect, kiln.clock, 'worker-b', 1000, ['test.lease']);
    expect(second).toMatchObject({ id: first!.id, attempts: 2 });
    await markDone(kiln.deps.db, kiln.clock, first!, 'worker-a');
    const [job] = await jobsOf('test.lease');
    expect(job).toMatchObject({ state: 'running', locked_by: 'worker-b' });
  });

  it('claims in run_at then id order across due jobs and expired leases, only of the kinds asked for', async () => {
    const kinds = ['test.order-a', 'test.order-b'];
    const claim = () => claimNext(kiln.deps.db, kiln.deps.dialect, kiln.clock, 'worker-order', 60_000, kinds);
    const t = kiln.clock.now();
    const expiring = await enqueue(kiln.deps.db, kiln.clock, 'test.order-a', { n: 'expiring' }, { runAt: t - 500 });
    expect(await claim()).toMatchObject({ id: expiring });
    const later = await enqueue(kiln.deps.db, kiln.clock, 'test.order-b', { n: 'later' }, { runAt: t + 2000 });
    const earlier = await enqueue(kiln.deps.db, kiln.clock, 'test.order-a', { n: 'earlier' }, { runAt: t + 1000 });
    const tie = await enqueue(kiln.deps.db, kiln.clock, 'test.order-b', { n: 'tie' }, { runAt: t + 1000 });
    await enqueue(kiln.deps.db, kiln.clock, 'test.order-other', { n: 'other kind' }, { runAt: t - 1000 });
    kiln.clock.advance(60_001 + 2000);
    // The expired lease ran at t - 500: before every queued job, so it comes first; then run_at, then id.
    const order = [];
    for (let job = await claim(); job; job = await claim()) order.push(job.id);
    expect(order).toEqual([expiring, earlier, tie, later]);
  });

  it('the lease length comes from KILN_JOB_LEASE_MS', async () => {
    const worker = new Worker({ ...kiln.deps, config: { ...kiln.deps.config, jobLeaseMs: 1234 } }, {
      'test.lease-config': async () => {
        const [job] = await jobsOf('test.lease-config');
        expect(Number(job.lease_until)).toBe(kiln.clock.now() + 1234);
      },
    });
    await enqueue(kiln.deps.db, kiln.clock, 'test.lease-config', {});
    expect(await worker.runOnce()).toBe(true);
    expect((await jobsOf('test.lease-config'))[0].state).toBe('done');
  });
});

describe('Worker.start while the server answers requests', () => {
  it('pauses after each job while requests arrive (9× its time), runs flat out when they stop, and stops at once', async () => {
    const activity = requestActivity(kiln.deps.caches);
    const starts: number[] = [];
    const worker = new Worker(kiln.deps, {
      'test.paced': async (_deps, payload: { ms?: number }) => {
        starts.push(performance.now());
        activity.count += BUSY_REQUESTS; // a request arrived while the job ran
        await new Promise((resolve) => setTimeout(resolve, payload.ms ?? 20));
      },
    }, { pollMs: 5 });
    for (let n = 0; n < 3; n += 1) await enqueue(kiln.deps.db, kiln.clock, 'test.paced', { n });
    // Requests keep arriving while the first three jobs run.
    const requests = setInterval(() => (activity.count += BUSY_REQUESTS), 10);
    worker.start();
    try {
      const until = Date.now() + 5_000;
      while (starts.length < 3 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        worker.poke(); // a poke wakes an idle worker but does not cut a pause short
      }
      expect(starts).toHaveLength(3);
      // Each job took ≥ 20 ms, so the pause after it is ≥ 180 ms.
      expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(190);
      expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(190);
      // When the requests stop, a pause ends within the busy window: after a 200 ms job the pause
      // would be a second, but the next job starts about 100 ms after the job's last request.
      clearInterval(requests);
      await enqueue(kiln.deps.db, kiln.clock, 'test.paced', { n: 3, ms: 200 });
      await enqueue(kiln.deps.db, kiln.clock, 'test.paced', { n: 4, ms: 0 });
      while (starts.length < 5 && Date.now() < until + 5_000) await new Promise((resolve) => setTimeout(resolve, 5));
      // The 200 ms job's timer may fire a fraction of a millisecond early by performance.now()'s clock.
      expect(starts[4] - starts[3]).toBeGreaterThanOrEqual(195);
      expect(starts[4] - starts[3]).toBeLessThan(600);
    } finally {
      clearInterval(requests);
      await worker.stop();
    }
    // Without requests, the same jobs run back to back.
    const quiet: number[] = [];
    const idle = new Worker(kiln.deps, {
      'test.unpaced': async () => {
        quiet.push(performance.now());
        await new Promise((resolve) => setTimeout(resolve, 40));
      },
    }, { pollMs: 5 });
    for (let n = 0; n < 3; n += 1) await enqueue(kiln.deps.db, kiln.clock, 'test.unpaced', { n });
    await new Promise((resolve) => setTimeout(resolve, 120));
    idle.start();
    try {
      const until = Date.now() + 5_000;
      while (quiet.length < 3 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
      // Paced, each 40 ms job would be followed by at least 360 ms.
      expect(quiet).toHaveLength(3);
      expect(Math.max(quiet[1] - quiet[0], quiet[2] - quiet[1])).toBeLessThan(250);
    } finally {
      await idle.stop();
    }
    // stop() during a pause returns without waiting it out.
    const long = new Worker(kiln.deps, { 'test.long': async () => { activity.count += BUSY_REQUESTS; await new Promise((resolve) => setTimeout(resolve, 200)); } }, { pollMs: 5 });
    await enqueue(kiln.deps.db, kiln.clock, 'test.long', {});
    long.start();
    while ((await jobsOf('test.long'))[0].state !== 'done') await new Promise((resolve) => setTimeout(resolve, 10));
    const stopping = performance.now();
    await long.stop();
    expect(performance.now() - stopping).toBeLessThan(300);
  });
});

describe('two workers on two nodes', () => {
  it('never run the same job twice and together run every job', async () => {
    const node2: Kiln = await startKiln(kiln.config, { clock: kiln.clock, log: pino({ level: 'silent' }), database: kiln.testDb.reopen(), secrets: testSecrets() });
    try {
      const runs: number[] = [];
      const handler: JobHandler = async (_deps, payload: { n: number }) => {
        runs.push(payload.n);
        await new Promise((resolve) => setTimeout(resolve, 2));
      };
      for (let n = 0; n < 40; n += 1) await enqueue(kiln.deps.db, kiln.clock, 'test.shared', { n });
      const a = new Worker(kiln.deps, { 'test.shared': handler });
      const b = new Worker(node2.deps, { 'test.shared': handler });
      const [ranA, ranB] = await Promise.all([a.drain(), b.drain()]);
      expect(ranA + ranB).toBe(40);
      expect([...runs].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, n) => n));
      expect((await jobsOf('test.shared')).every((job) => job.state === 'done' && job.attempts === 1)).toBe(true);
    } finally {
      await node2.close();
    }
  });
});

describe('platform.housekeeping', () => {
  it('is scheduled on start, prunes old done jobs and expired rate-limit rows, keeps dead jobs, and re-schedules itself', async () => {
    const now = kiln.clock.now();
    const day = 24 * 3600_000;
    const old = now - 8 * day;
    const base = { payload: '{}', max_attempts: 1, lease_until: null, locked_by: null, last_error: null, run_at: old, created_at: old };
    await kiln.deps.db.insertInto('jobs').values([
      { ...base, kind: 'test.old-done', state: 'done', updated_at: old },
      { ...base, kind: 'test.recent-done', state: 'done', updated_at: now - day },
      { ...base, kind: 'test.old-dead', state: 'dead', updated_at: old },
    ]).execute();
    await kiln.deps.db.insertInto('rate_limits').values([
      { key: 'stale', window_start: now - 2 * day, count: 3, expires_at: now - 2 * day + 60_000 },
      { key: 'fresh', window_start: now - 60_000, count: 1, expires_at: now + 10 * 60_000 },
    ]).execute();
    const scheduled = await jobsOf(HOUSEKEEPING_JOB);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0].state).toBe('queued');
    kiln.clock.advance(60_000);
    await kiln.worker.drain();
    const kinds = (await kiln.deps.db.selectFrom('jobs').select('kind').where('kind', 'like', 'test.%d%').execute()).map((row) => row.kind);
    expect(kinds).not.toContain('test.old-done');
    expect(kinds).toEqual(expect.arrayContaining(['test.recent-done', 'test.old-dead']));
    const keys = (await kiln.deps.db.selectFrom('rate_limits').select('key').execute()).map((row) => row.key);
    expect(keys).toEqual(['fresh']);
    const after = await jobsOf(HOUSEKEEPING_JOB);
    expect(after.map((job) => job.state)).toEqual(['done', 'queued']);
    expect(Number(after[1].run_at)).toBe(kiln.clock.now() + HOUSEKEEPING_INTERVAL_MS);
  });

  it('prunes rate-limit rows once their own window has ended, however long it is, in bounded batches', async () => {
    await kiln.deps.db.deleteFrom('rate_limits').execute();
    const day = 24 * 3600_000;
    const clock = kiln.clock;
    // A throttle period of a week (an administrator's setting): its window outlives a day; the one
    // this clock is in started more than a day ago and ends more than a day later.
    const long = await hit(kiln.deps.db, clock, 'long-period', { limit: 100, windowMs: 7 * day });
    expect(long.resetAt - clock.now()).toBeGreaterThan(day + 300_000);
    await hit(kiln.deps.db, clock, 'one-minute', { limit: 10, windowMs: 60_000 });
    clock.advance(day);
    for (let i = 0; i < 25; i += 1) await hit(kiln.deps.db, clock, `burst-${i}`, { limit: 10, windowMs: 60_000 });
    await hit(kiln.deps.db, clock, 'current', { limit: 10, windowMs: 60_000 });
    clock.advance(120_000);
    await hit(kiln.deps.db, clock, 'current', { limit: 10, windowMs: 60_000 });
    const keys = async () => (await kiln.deps.db.selectFrom('rate_limits').select('key').orderBy('key').execute()).map((row) => row.key);
    // 26 rows have expired; two statements of ten take twenty, the next run the rest.
    expect(await pruneRateLimits(kiln.deps.db, clock.now(), { batch: 10, batches: 2 })).toBe(20);
    expect(await keys()).toHaveLength(8);
    expect(await pruneRateLimits(kiln.deps.db, clock.now(), { batch: 10, batches: 2 })).toBe(6);
    expect(await keys()).toEqual(['current', 'long-period']);
    // The long window still counts where it left off.
    expect((await hit(kiln.deps.db, clock, 'long-period', { limit: 100, windowMs: 7 * day })).count).toBe(2);
  });
});
