// Pipeline processing (GitLab's Ci::PipelineProcessing::AtomicProcessingService): every `created` job
// whose prerequisites are complete — the jobs of earlier stages, or those it `needs` — moves on by
// its `when` (on_success → pending when they passed, manual → manual, delayed → scheduled,
// on_failure → pending when they failed, always → pending; skipped otherwise). A job of a resource
// group goes to `waiting_for_resource` instead of `pending`, and the pipeline's groups are settled
// (resource-groups/assign-resource.ts): a resource its holder no longer needs goes to the group's next
// waiting job, which becomes `pending`, whichever pipeline it is in. Then the pipeline's status is the
// composite of its latest jobs, and a change is published (merge requests merge on a success). Runs
// inside the transaction that changed a job, so the change and its consequences commit together.
import type { Deps } from '../../platform/deps.js';
import type { DbTransaction as Transaction } from '../../platform/db/database.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import { ACTIVE, COMPLETED, compositeStatus, type CiPipelineRow } from '../../commit-statuses/api.js';
import { parseDuration } from '../config/duration.js';
import { jobStatusChanged } from './job-status-changed.js';
import type { BuildOptions } from './build-options.js';
import { assignResources, lockResources, pipelineResourceGroups } from '../resource-groups/assign-resource.js';

type Trx = Transaction;

interface BuildState {
  id: number;
  project_id: number;
  user_id: number | null;
  name: string;
  stage_idx: number;
  status: CiStatus;
  allow_failure: number;
  when: string | null;
  options: string | null;
  resource_group_id: number | null;
}

function isComplete(composite: CiStatus): boolean {
  return COMPLETED.includes(composite);
}

/** The status a created job moves to given the composite of its prerequisites, or null to wait. */
function nextStatus(when: string, previous: CiStatus, dag: boolean): CiStatus | null {
  if (!isComplete(previous)) return null;
  const passed = previous === 'success' || (!dag && previous === 'skipped');
  switch (when) {
    case 'on_failure':
      return previous === 'failed' ? 'pending' : 'skipped';
    case 'always':
      return previous === 'canceled' ? 'skipped' : 'pending';
    case 'manual':
      return passed ? 'manual' : 'skipped';
    case 'delayed':
      return passed ? 'scheduled' : 'skipped';
    default:
      return passed ? 'pending' : 'skipped';
  }
}

/**
 * Holds the pipeline's row until the transaction ends, so transactions that change jobs of one pipeline
 * compute its status one after another. Without it two jobs finishing at once on PostgreSQL each read
 * the other as still running, and the pipeline stayed `running` after its last job passed. A no-op
 * update takes the row lock on both databases (SQLite's write transaction already excludes others);
 * it answers the row as held.
 */
async function lockPipeline(trx: Trx, pipelineId: number): Promise<CiPipelineRow> {
  return trx.updateTable('ci_pipelines').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', pipelineId).returningAll().executeTakeFirstOrThrow();
}

/**
 * Holds the resource rows of the groups the pipeline's jobs use (before its own row: the order
 * assign-resource.ts explains). Every transaction that changes a job of the pipeline takes them,
 * through its processing; one that takes the pipeline's row first takes these before it.
 */
export async function holdPipelineResources(trx: Trx, deps: Deps, pipelineId: number): Promise<number[]> {
  const groups = await pipelineResourceGroups(trx, pipelineId);
  await lockResources(trx, deps, groups);
  return groups;
}

export async function processPipeline(trx: Trx, deps: Deps, pipelineId: number): Promise<CiStatus> {
  const now = deps.clock.now();
  const groups = await holdPipelineResources(trx, deps, pipelineId);
  await lockPipeline(trx, pipelineId);
  const builds: BuildState[] = await trx
    .selectFrom('ci_builds')
    .select(['id', 'project_id', 'user_id', 'name', 'stage_idx', 'status', 'allow_failure', 'when', 'options', 'resource_group_id'])
    .where('commit_id', '=', pipelineId)
    .where('retried', '=', 0)
    .orderBy('stage_idx')
    .orderBy('id')
    .execute();
  const byName = new Map(builds.map((build) => [build.name, build]));
  // Repeat until nothing moves: a skipped job can complete a later one's prerequisites in the same pass.
  for (let changed = true, rounds = 0; changed && rounds <= builds.length; rounds++) {
    changed = false;
    for (const build of builds) {
      if (build.status !== 'created' || build.when === null) continue;
      const options = build.options ? (JSON.parse(build.options) as BuildOptions) : null;
      const needs = options?.needs ?? null;
      const previous = needs
        ? needs.map((need) => byName.get(need.job)).filter((found): found is BuildState => found !== undefined)
        : builds.filter((other) => other.stage_idx < build.stage_idx);
      const composite = previous.length === 0 ? 'success' : compositeStatus(previous);
      const dagSkipped = needs !== null && previous.some((other) => other.status === 'skipped');
      const next = dagSkipped && isComplete(composite) ? 'skipped' : nextStatus(build.when, composite, needs !== null);
      if (next === null) continue;
      const status = next === 'pending' ? enqueuedStatus(build) : next;
      build.status = status;
      changed = true;
      const startIn = status === 'scheduled' ? (parseDuration(options?.startIn ?? '') ?? 0) : 0;
      await trx
        .updateTable('ci_builds')
        .set({
          status,
          updated_at: now,
          ...enqueuedAt(status, now),
          ...(status === 'scheduled' ? { scheduled_at: now + startIn * 1000 } : {}),
          ...(status === 'skipped' ? { finished_at: now } : {}),
        })
        .where('id', '=', build.id)
        .execute();
      await jobStatusChanged(trx, deps, build, status);
    }
  }
  return settleResources(trx, deps, groups, { pipelineId, builds });
}

/** A job about to be queued: `waiting_for_resource` when it needs a resource group's resource, else `pending`. */
export function enqueuedStatus(build: { resource_group_id: number | string | null }): 'pending' | 'waiting_for_resource' {
  return build.resource_group_id === null ? 'pending' : 'waiting_for_resource';
}

/** The time a job moved to `status` was queued (`pending`) or began to wait for its resource; nothing for other statuses. */
export function enqueuedAt(status: CiStatus, now: number): { queued_at: number } | { waiting_for_resource_at: number } | Record<string, never> {
  if (status === 'pending') return { queued_at: now };
  return status === 'waiting_for_resource' ? { waiting_for_resource_at: now } : {};
}

/**
 * Settles the groups (assign-resource.ts), their rows held: each job given a resource is published
 * as `pending`, then the status of `own` pipeline (its row held, its latest jobs as known) and of
 * every other pipeline a job was moved in, in id order, so two transactions take them in one order.
 */
export async function settleResources(trx: Trx, deps: Deps, groups: number[], own?: { pipelineId: number; builds?: Array<{ id: number; status: CiStatus; allow_failure: number }> }): Promise<CiStatus> {
  const assigned = groups.length > 0 ? await assignResources(trx, deps, groups) : [];
  for (const job of assigned) {
    await jobStatusChanged(trx, deps, job, 'pending');
    const known = own?.builds?.find((build) => Number(build.id) === job.id);
    if (known) known.status = 'pending';
  }
  const status = own ? await savedCompositeStatus(trx, deps, own.pipelineId, own.builds) : 'success';
  const others = [...new Set(assigned.map((job) => job.commit_id).filter((id) => id !== own?.pipelineId))].sort((a, b) => a - b);
  for (const other of others) {
    await lockPipeline(trx, other);
    await savedCompositeStatus(trx, deps, other);
  }
  return status;
}

/**
 * A job moved `pending → running` (a runner took it). It moves no other job: a job waiting for it
 * waits for it to complete, and a pending job was not complete before either. A running latest job
 * makes the pipeline's composite `running` whatever its other jobs are, so they need not be read: one
 * guarded update sets the pipeline `running` unless it already is. That update holds the row only when
 * it changes it (the pipeline's first job to start): the next 99 claims of a 100-job pipeline match no
 * row and take no lock, so runners claiming jobs of one pipeline at once no longer queue on its row
 * (issue 39). A transaction that changes the pipeline's row at that moment is still waited for (the
 * row is re-read after its lock), and one computing the composite then sees a job started or pending,
 * which is `running` either way. A job no longer among the latest (retried) does not count in the
 * composite: then the pipeline is processed as after any move. Answers the pipeline's row when it
 * changed, null when it was already running.
 */
export async function jobStarted(trx: Trx, deps: Deps, job: { commit_id: number | string; retried: number | string }): Promise<CiPipelineRow | null> {
  const pipelineId = Number(job.commit_id);
  if (Number(job.retried) === 1) {
    await processPipeline(trx, deps, pipelineId);
    return trx.selectFrom('ci_pipelines').selectAll().where('id', '=', pipelineId).executeTakeFirstOrThrow();
  }
  const now = deps.clock.now();
  const saved = await trx
    .updateTable('ci_pipelines')
    .set((eb) => ({ status: 'running', updated_at: now, started_at: eb.fn.coalesce('started_at', eb.val(now)), finished_at: null }))
    .where('id', '=', pipelineId)
    .where('status', '!=', 'running')
    .where('yaml_errors', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (saved) await publishPipelineStatus(deps, trx, saved);
  return saved ?? null;
}

/** The pipeline's status from its latest jobs, once its resource groups are settled (its jobs changed); published when it changed. */
export async function updatePipelineStatus(trx: Trx, deps: Deps, pipelineId: number): Promise<CiStatus> {
  const groups = await holdPipelineResources(trx, deps, pipelineId);
  await lockPipeline(trx, pipelineId);
  return settleResources(trx, deps, groups, { pipelineId });
}

/** The held pipeline's status from its latest jobs (`builds` when the caller has them); published when it changed. */
async function savedCompositeStatus(trx: Trx, deps: Deps, pipelineId: number, builds?: Array<{ status: CiStatus; allow_failure: number }>): Promise<CiStatus> {
  const latest = builds ?? (await trx.selectFrom('ci_builds').select(['status', 'allow_failure']).where('commit_id', '=', pipelineId).where('retried', '=', 0).execute());
  const pipeline = await trx.selectFrom('ci_pipelines').selectAll().where('id', '=', pipelineId).executeTakeFirstOrThrow();
  return (await savePipelineStatus(trx, deps, pipeline, latest.length === 0 ? 'skipped' : compositeStatus(latest))).status;
}

/** `status` saved as the held pipeline's (a pipeline whose YAML failed keeps its own), published when it changed: the row after. */
async function savePipelineStatus(trx: Trx, deps: Deps, pipeline: CiPipelineRow, status: CiStatus): Promise<CiPipelineRow> {
  if (pipeline.yaml_errors !== null || status === pipeline.status) return pipeline;
  const now = deps.clock.now();
  const active = ACTIVE.includes(status) || status === 'manual';
  const saved = await trx
    .updateTable('ci_pipelines')
    .set({
      status,
      updated_at: now,
      ...(pipeline.started_at === null && (status === 'running' || status === 'success' || status === 'failed') ? { started_at: now } : {}),
      finished_at: active ? null : now,
    })
    .where('id', '=', pipeline.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await publishPipelineStatus(deps, trx, saved);
  return saved;
}

function publishPipelineStatus(deps: Deps, trx: Trx, pipeline: CiPipelineRow): Promise<void> {
  return deps.domainEvents.publish(trx, { kind: 'pipeline.status_changed', projectId: Number(pipeline.project_id), actorId: pipeline.user_id === null ? null : Number(pipeline.user_id), pipelineId: Number(pipeline.id), sha: pipeline.sha, ref: pipeline.ref, status: pipeline.status });
}
