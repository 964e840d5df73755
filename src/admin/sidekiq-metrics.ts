// GET /sidekiq/{queue,process,job_stats,compound}_metrics (lib/api/sidekiq_metrics.rb) over Kiln's
// durable job queue (src/platform/jobs): one queue, named `default`, claimed in run_at order by one
// worker per node (a job at a time). python-gitlab's functional suite polls process_metrics until no
// process is busy before it reads what a job wrote (docs/clients.md).
import { hostname } from 'node:os';
import type { Deps } from '../platform/deps.js';
import { localWorkers } from '../platform/jobs/worker-registry.js';

/** Kiln's only queue, under the name Sidekiq gives its default one. */
const QUEUE = 'default';

export async function queueMetrics(deps: Deps) {
  const now = deps.clock.now();
  const due = await deps.db.selectFrom('jobs')
    .select((eb) => [eb.fn.countAll<number | string>().as('backlog'), eb.fn.min('run_at').as('oldest')])
    .where('state', '=', 'queued').where('run_at', '<=', now)
    .executeTakeFirstOrThrow();
  const oldest = due.oldest === null ? null : Number(due.oldest);
  // Sidekiq's latency: whole seconds the oldest job waiting in the queue has waited.
  return { queues: { [QUEUE]: { backlog: Number(due.backlog), latency: oldest === null ? 0 : Math.floor((now - oldest) / 1000) } } };
}

/** A worker id is `host:pid:random` (worker.ts). */
function workerProcess(id: string, startedAt: number | null, busy: number) {
  const [host, pid] = id.split(':');
  return {
    hostname: host || hostname(), pid: Number(pid) || null, tag: 'kiln',
    started_at: startedAt === null ? null : new Date(startedAt).toISOString(),
    queues: [QUEUE], labels: [], concurrency: 1, busy,
  };
}

/**
 * The workers started in this process, idle or not, and the workers of other nodes that hold a job
 * now (a node's idle worker leaves no trace in the database). busy: jobs held under a live lease.
 */
export async function processMetrics(deps: Deps) {
  const now = deps.clock.now();
  const held = await deps.db.selectFrom('jobs')
    .select((eb) => ['locked_by', eb.fn.countAll<number | string>().as('busy')])
    .where('state', '=', 'running').where('lease_until', '>=', now).where('locked_by', 'is not', null)
    .groupBy('locked_by')
    .execute();
  const busy = new Map(held.map((row) => [row.locked_by as string, Number(row.busy)]));
  const local = localWorkers(deps);
  const processes = local.map((worker) => workerProcess(worker.id, worker.startedAt, busy.get(worker.id) ?? 0));
  for (const [id, count] of busy) if (!local.some((worker) => worker.id === id)) processes.push(workerProcess(id, null, count));
  return { processes };
}

/** Counts over the jobs the table still keeps (housekeeping prunes finished ones after a while). */
export async function jobStats(deps: Deps) {
  // Per state, how many jobs and how many of them failed at least once: one statement.
  const rows = await deps.db.selectFrom('jobs')
    .select((eb) => ['state', eb.fn.countAll<number | string>().as('count'), eb.fn.count<number | string>('last_error').as('failed')])
    .groupBy('state')
    .execute();
  const byState = Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
  const failed = rows.reduce((sum, row) => sum + Number(row.failed), 0);
  const done = byState.done ?? 0;
  const dead = byState.dead ?? 0;
  return { jobs: { processed: done + dead, failed, enqueued: byState.queued ?? 0, dead } };
}
