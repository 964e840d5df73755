// Handing a resource group's one resource to its next job (GitLab's Ci::ResourceGroup#assign_resource_to,
// #release_resource_from and AssignResourceFromResourceGroupService), in the transaction that changed a
// job of a pipeline using the group. The resource goes back when the job holding it is complete (or
// gone, its pipeline deleted), and a free resource goes to the group's next job by its process mode:
//
// - `unordered`: the waiting jobs, oldest job first;
// - `oldest_first` / `newest_first`: the jobs waiting or still to come (`created`, `scheduled`), by
//   pipeline, oldest or newest first, so a job of an earlier (later) pipeline that is not ready yet
//   keeps the resource free for itself;
// - `newest_ready_first`: the waiting jobs, newest pipeline first.
//
// Taking it is a conditional UPDATE (`build_id IS NULL`): one holder per resource, whichever node asks.
//
// Why the locks. A holder completing (T1) and another job starting to wait (T2) in two transactions
// must not each see the other's change as not made yet, or the waiting job would wait for a free
// resource forever. So both first take the group's resource row (lockResources, PostgreSQL; SQLite
// runs one writer at a time) and only then read the holder and the waiting jobs: whichever comes
// second sees the first's commit and hands the resource on. The rows are taken before the pipeline's
// row, in id order, by every transaction that processes a pipeline using the group; a transaction
// holding a group's resource then moves a job of another pipeline, whose own processing would have
// needed that resource first, so the pipeline rows it takes are never held by one waiting for it. A
// waiting job another transaction holds (it is being cancelled, or deleted) is passed over (SKIP
// LOCKED) rather than waited for: that transaction waits for the resource row and settles the group
// again once it has it.
import type { Deps } from '../../platform/deps.js';
import type { DbTransaction, Executor } from '../../platform/db/database.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import type { CiResourceGroupsTable } from '../../platform/db/tables/ci.js';

type ProcessMode = CiResourceGroupsTable['process_mode'];

const COMPLETE: CiStatus[] = ['success', 'failed', 'canceled', 'skipped'];
const UPCOMING: CiStatus[] = ['created', 'scheduled', 'waiting_for_resource'];

/** A job given its group's resource: now `pending`. */
export interface AssignedJob {
  id: number;
  project_id: number;
  user_id: number | null;
  commit_id: number;
  environment: string | null;
}

/** The resource groups a pipeline's jobs use, in id order. */
export async function pipelineResourceGroups(trx: Executor, pipelineId: number): Promise<number[]> {
  const rows = await trx.selectFrom('ci_builds').select('resource_group_id').distinct().where('commit_id', '=', pipelineId).where('resource_group_id', 'is not', null).execute();
  return rows.map((row) => Number(row.resource_group_id)).sort((a, b) => a - b);
}

/** Holds the groups' resource rows until the transaction ends, in id order (PostgreSQL; SQLite has one writer). */
export async function lockResources(trx: DbTransaction, deps: Deps, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0 || deps.dialect !== 'postgres') return;
  await trx.selectFrom('ci_resources').select('id').where('resource_group_id', 'in', groupIds).orderBy('id').forUpdate().execute();
}

/** The group's jobs in the order its process mode hands the resource out (GitLab's upcoming_processables). */
export function upcomingJobs(db: Executor, group: { id: number; process_mode: ProcessMode }) {
  const mode = group.process_mode;
  let query = db.selectFrom('ci_builds').where('resource_group_id', '=', group.id).where('retried', '=', 0);
  query = mode === 'oldest_first' || mode === 'newest_first' ? query.where('status', 'in', UPCOMING) : query.where('status', '=', 'waiting_for_resource');
  // Within a pipeline no order among its jobs: whichever waits goes first (GitLab's sort_by_job_status).
  if (mode !== 'unordered') query = query.orderBy('commit_id', mode === 'oldest_first' ? 'asc' : 'desc').orderBy((eb) => eb.case().when('status', '=', 'waiting_for_resource').then(0).else(1).end());
  return query.orderBy('id');
}

/**
 * Settles each group: its resource released when its holder is complete or gone, then, when free,
 * given to the group's next job if that job waits. Answers the jobs it moved to `pending`; the
 * caller publishes them and updates their pipelines. Call with the groups' rows held (lockResources).
 */
export async function assignResources(trx: DbTransaction, deps: Deps, groupIds: number[]): Promise<AssignedJob[]> {
  const assigned: AssignedJob[] = [];
  const now = deps.clock.now();
  for (const groupId of groupIds) {
    const resource = await trx
      .selectFrom('ci_resources as r')
      .innerJoin('ci_resource_groups as g', 'g.id', 'r.resource_group_id')
      .leftJoin('ci_builds as b', 'b.id', 'r.build_id')
      .select(['r.id', 'r.build_id', 'b.status as holder_status', 'g.process_mode'])
      .where('r.resource_group_id', '=', groupId)
      .executeTakeFirst();
    if (!resource) continue;
    if (resource.build_id !== null) {
      const holderDone = resource.holder_status === null || COMPLETE.includes(resource.holder_status);
      if (!holderDone) continue;
      await trx.updateTable('ci_resources').set({ build_id: null, updated_at: now }).where('id', '=', resource.id).where('build_id', '=', resource.build_id).execute();
    }
    let next = upcomingJobs(trx, { id: groupId, process_mode: resource.process_mode }).select(['id', 'status', 'project_id', 'user_id', 'commit_id', 'environment']).limit(1);
    if (deps.dialect === 'postgres') next = next.forNoKeyUpdate().skipLocked();
    const job = await next.executeTakeFirst();
    if (!job || job.status !== 'waiting_for_resource') continue;
    const taken = await trx.updateTable('ci_resources').set({ build_id: job.id, updated_at: now }).where('id', '=', resource.id).where('build_id', 'is', null).executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) continue;
    await trx.updateTable('ci_builds').set({ status: 'pending', queued_at: now, updated_at: now }).where('id', '=', job.id).execute();
    assigned.push({ id: Number(job.id), project_id: Number(job.project_id), user_id: job.user_id === null ? null : Number(job.user_id), commit_id: Number(job.commit_id), environment: job.environment });
  }
  return assigned;
}
