// Handing a pending job to a runner (GitLab's Ci::RegisterJobService): the oldest pending jobs the
// runner may take — its scope (every project for an instance runner, the group's subtree for a group
// runner, its assigned projects for a project runner; a project whose shared_runners_enabled or
// group_runners_enabled is false gives no job to instance or group runners), its tags (a job's tags must all be the
// runner's; an untagged job needs `run_untagged`) and `ref_protected` — are read a page at a time
// (ids and tags only), and the first of them still pending is moved `pending → running` by one
// guarded UPDATE: two runners asking at once never get the same job. On PostgreSQL the UPDATE picks
// its row with SKIP LOCKED, so runners asking at once take different jobs instead of queueing behind
// the one claiming the oldest; SQLite runs one writer at a time, so the statement is atomic there.
// The job gets its token then (stored as a digest) and the pipeline becomes `running` in the same
// transaction. Tags are compared here, not in SQL (they are a JSON list): the pending jobs are read
// past the ones the runner cannot take, so a tagged runner is not starved behind older jobs it
// cannot take. What SQL can tell (untagged or not) is filtered there. A runner without tags takes
// untagged jobs only, which SQL tells exactly: its claim is the one UPDATE, with the oldest job it may
// take chosen inside it, and no list read first (one statement and one round trip fewer a job).
import type { Deps } from '../../platform/deps.js';
import type { UserState } from '../../platform/db/tables/accounts.js';
import { inTransaction } from '../../platform/db/database.js';
import type { CiBuildRow, CiPipelineRow } from '../../commit-statuses/api.js';
import type { CiRunnerRow } from '../entities.js';
import { newToken, tokenDigest } from '../tokens.js';
import { jobStarted } from '../pipelines/process-pipeline.js';
import { jobStatusChanged } from '../pipelines/job-status-changed.js';

/** The job a runner took, its token, and its pipeline when the claim changed it (null: read it, it was running already). */
export interface Claimed {
  build: CiBuildRow;
  token: string;
  pipeline: CiPipelineRow | null;
  /** The state of the job's user (null: none, or gone). */
  userState: UserState | null;
}

const CANDIDATES = 45;
/** Pages of pending jobs looked at per request at most: 45 × 100 = 4,500 jobs the runner cannot take. */
const MAX_PAGES = 100;

/** The pending jobs in the runner's scope (null: its group is gone), with what SQL can tell of their tags. */
async function scopedQuery(deps: Deps, runner: CiRunnerRow) {
  let query = deps.db.selectFrom('ci_builds').where('status', '=', 'pending').where('type', '=', 'Ci::Build');
  if (runner.runner_type === 'project_type') {
    query = query.where('project_id', 'in', deps.db.selectFrom('ci_runner_projects').select('project_id').where('runner_id', '=', runner.id));
  } else if (runner.runner_type === 'instance_type') {
    // Not the projects that turned instance runners off (shared_runners_enabled): read from an index
    // holding only those, so the claim costs what it did when none has.
    query = query.where('project_id', 'not in', deps.db.selectFrom('projects').select('id').where('shared_runners_enabled', '=', 0));
  } else if (runner.runner_type === 'group_type') {
    const group = runner.group_id === null ? undefined : await deps.db.selectFrom('namespaces').select(['id', 'full_path_lower']).where('id', '=', runner.group_id).executeTakeFirst();
    if (!group) return null;
    // The group and its subgroups: namespaces whose path is the group's or starts with it and a slash.
    const prefix = `${group.full_path_lower}/`;
    query = query.where('project_id', 'in', (eb) =>
      eb
        .selectFrom('projects as p')
        .innerJoin('namespaces as n', 'n.id', 'p.namespace_id')
        .select('p.id')
        // Not the projects that turned group runners off (group_runners_enabled).
        .where('p.group_runners_enabled', '=', 1)
        .where((inner) => inner.or([inner('n.id', '=', group.id), inner(inner.fn('substr', ['n.full_path_lower', inner.val(1), inner.val(prefix.length)]), '=', prefix)])),
    );
  }
  if (runner.access_level === 'ref_protected') query = query.where('protected', '=', 1);
  // A runner without tags takes untagged jobs only; one that may not run untagged jobs, tagged ones only.
  if ((JSON.parse(runner.tag_list) as string[]).length === 0) query = query.where((eb) => eb.or([eb('tag_list', 'is', null), eb('tag_list', '=', '[]')]));
  if (Number(runner.run_untagged) !== 1) query = query.where('tag_list', 'is not', null).where('tag_list', '!=', '[]');
  return query;
}

type PendingJobs = NonNullable<Awaited<ReturnType<typeof scopedQuery>>>;

function runnerMayTake(runner: CiRunnerRow, build: { tag_list: string | null }): boolean {
  const wanted = build.tag_list ? (JSON.parse(build.tag_list) as string[]) : [];
  if (wanted.length === 0) return Number(runner.run_untagged) === 1;
  const offered = new Set(JSON.parse(runner.tag_list) as string[]);
  return wanted.every((tag) => offered.has(tag));
}

/**
 * Which of the pending jobs `jobIds` the runner could take, read as a claim reads them (its scope,
 * `ref_protected`, its tags): the stuck-job check's question (drop-stuck-jobs.ts).
 */
export async function jobsRunnerMayTake(deps: Deps, runner: CiRunnerRow, jobIds: number[]): Promise<number[]> {
  const query = await scopedQuery(deps, runner);
  if (!query || jobIds.length === 0) return [];
  const candidates = await query.select(['id', 'tag_list']).where('id', 'in', jobIds).execute();
  return candidates.filter((candidate) => runnerMayTake(runner, candidate)).map((candidate) => Number(candidate.id));
}

export async function claimJob(deps: Deps, runner: CiRunnerRow): Promise<Claimed | null> {
  const query = await scopedQuery(deps, runner);
  if (!query) return null;
  // Untagged jobs only: the query is exact, the oldest pending one is claimed in the UPDATE itself.
  if ((JSON.parse(runner.tag_list) as string[]).length === 0) return claimFirst(deps, runner, query);
  let after = 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const candidates = await query.select(['id', 'tag_list']).where('id', '>', after).orderBy('id').limit(CANDIDATES).execute();
    const takeable = candidates.filter((candidate) => runnerMayTake(runner, candidate)).map((candidate) => Number(candidate.id));
    const claimed = takeable.length > 0 ? await claimFirst(deps, runner, query.where('id', 'in', takeable)) : null;
    if (claimed) return claimed;
    if (candidates.length < CANDIDATES) return null;
    after = Number(candidates[candidates.length - 1].id);
  }
  return null;
}

/** The claimed job's pipeline: the row the claim saved, or read when the claim left it as it was. */
export async function claimedPipeline(deps: Deps, claimed: Claimed): Promise<CiPipelineRow> {
  return claimed.pipeline ?? deps.db.selectFrom('ci_pipelines').selectAll().where('id', '=', claimed.build.commit_id).executeTakeFirstOrThrow();
}

/** The oldest of `jobs` still pending (and, on PostgreSQL, not being claimed by another runner) moved to running for `runner`. */
async function claimFirst(deps: Deps, runner: CiRunnerRow, jobs: PendingJobs): Promise<Claimed | null> {
  const token = newToken('glcbt-');
  return inTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const first = jobs.select('id').orderBy('id').limit(1);
    const claimed = await trx
      .updateTable('ci_builds')
      .set({ status: 'running', runner_id: runner.id, started_at: now, updated_at: now, token_digest: tokenDigest(token) })
      .where('id', '=', deps.dialect === 'postgres' ? first.forUpdate().skipLocked() : first)
      .where('status', '=', 'pending')
      .returningAll()
      // The job user's state, for the pre-assign check (pre-assign-checks.ts), in the same round trip.
      .returning((eb) => eb.selectFrom('users').select('users.state').whereRef('users.id', '=', 'ci_builds.user_id').as('job_user_state'))
      .executeTakeFirst();
    if (!claimed) return null;
    const { job_user_state: userState, ...build } = claimed;
    const pipeline = await jobStarted(trx, deps, build);
    await jobStatusChanged(trx, deps, build, 'running');
    return { build, token, pipeline, userState: userState ?? null };
  });
}
