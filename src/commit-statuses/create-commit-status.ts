// POST /projects/:id/statuses/:sha (GitLab's Ci::CreateCommitStatusService): an external CI reports
// the state of one job on a commit. The status is a GenericCommitStatus build in the newest pipeline
// of that sha and ref (a new `external` pipeline when there is none); a pending or running status of
// the same name and ref moves on, otherwise a new one starts and the older ones count as retried. The
// pipeline's status follows its latest builds.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { tooLongMessage } from '../platform/http/params.js';
import type { CiStatus } from '../platform/db/tables/ci.js';
import { findCommit, readableRepository, refsContainingCommit, BRANCH_PREFIX } from '../repositories/api.js';
import { ACTIVE, COMPLETED, compositeStatus, transition, type PostedState } from './transitions.js';
import type { CiBuildRow, CiPipelineRow } from './rows.js';

export interface CommitStatusInput {
  sha: string;
  state: PostedState;
  ref?: string;
  name: string;
  targetUrl?: string;
  description?: string;
  coverage?: number;
  pipelineId?: number;
}

/** GenericCommitStatus: its stage and that stage's place after every stage a CI file could name. */
const EXTERNAL_STAGE = 'external';
const EXTERNAL_STAGE_IDX = 1_000_000;

/** GitLab's model validations of the attributes a client sends, as the 400 naming them. */
function validate(input: CommitStatusInput): void {
  const errors: Record<string, string[]> = {};
  if ([...input.name].length > 255) errors.name = [tooLongMessage(255)];
  if (input.targetUrl !== undefined) {
    const problems: string[] = [];
    let url: URL | null = null;
    try {
      url = new URL(input.targetUrl);
    } catch {
      problems.push('must be a valid URL');
    }
    if (url && url.protocol !== 'http:' && url.protocol !== 'https:') problems.push('is blocked: Only allowed schemes are http, https');
    if ([...input.targetUrl].length > 255) problems.push(tooLongMessage(255));
    if (problems.length) errors.target_url = problems;
  }
  if (input.coverage !== undefined && (!Number.isFinite(input.coverage) || input.coverage < 0 || input.coverage > 100)) {
    errors.coverage = ['must be in the range 0..100'];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

async function newestPipeline(db: Executor, projectId: number, sha: string, options: { ref?: string; id?: number }): Promise<CiPipelineRow | undefined> {
  let query = db.selectFrom('ci_pipelines').selectAll().where('project_id', '=', projectId).where('sha', '=', sha);
  if (options.ref !== undefined) query = query.where('ref', '=', options.ref);
  if (options.id !== undefined) query = query.where('id', '=', options.id);
  return query.orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export async function createCommitStatus(deps: Deps, access: ProjectAccess, userId: number, input: CommitStatusInput): Promise<{ build: CiBuildRow; pipeline: CiPipelineRow }> {
  validate(input);
  const project = access.project;
  const projectId = Number(project.id);
  const repoPath = await readableRepository(deps, project);
  const commit = repoPath ? await findCommit(repoPath, input.sha) : null;
  if (!repoPath || !commit) throw new NotFoundError('Commit');
  const sha = commit.id;
  const asked = input.pipelineId !== undefined ? await newestPipeline(deps.db, projectId, sha, { id: input.pipelineId }) : undefined;
  let ref = input.ref ?? asked?.ref ?? (await newestPipeline(deps.db, projectId, sha, {}))?.ref ?? null;
  let tag = false;
  if (ref === null) {
    const branches = await refsContainingCommit(repoPath, sha, [BRANCH_PREFIX]);
    ref = branches.length ? branches[0].slice(BRANCH_PREFIX.length) : null;
  } else if (input.ref !== undefined) {
    const refs = await refsContainingCommit(repoPath, sha, [`refs/heads/${ref}`, `refs/tags/${ref}`]);
    tag = !refs.includes(`refs/heads/${ref}`) && refs.includes(`refs/tags/${ref}`);
  }
  if (ref === null) throw new NotFoundError('References for commit');
  const now = deps.clock.now();
  const refName = ref;

  return inTransaction(deps.db, async (trx) => {
    let pipeline = asked ?? (await newestPipeline(trx, projectId, sha, { ref: refName }));
    if (!pipeline) {
      const iid = await nextInternalId(trx, projectId, 'ci_pipelines');
      pipeline = await trx
        .insertInto('ci_pipelines')
        .values({ project_id: projectId, iid, sha, ref: refName, tag: tag ? 1 : 0, source: 'external', user_id: userId, created_at: now, updated_at: now, started_at: null, finished_at: null, before_sha: null })
        .returningAll()
        .executeTakeFirstOrThrow();
    } else {
      // Touching the pipeline first takes its row lock on PostgreSQL: two statuses posted at once
      // for one pipeline are applied one after the other, and its status is computed from both.
      await trx.updateTable('ci_pipelines').set({ updated_at: now }).where('id', '=', pipeline.id).execute();
    }
    const pipelineId = Number(pipeline.id);
    const reusable = await trx
      .selectFrom('ci_builds')
      .selectAll()
      .where('commit_id', '=', pipelineId)
      .where('name', '=', input.name)
      .where('ref', '=', refName)
      .where('status', 'in', ['pending', 'running'])
      .where('retried', '=', 0)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const current: CiStatus = reusable?.status ?? 'created';
    const status = transition(current, input.state);
    const optional = {
      ...(input.targetUrl !== undefined ? { target_url: input.targetUrl } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.coverage !== undefined ? { coverage: input.coverage } : {}),
    };
    const times = {
      ...(status === 'pending' ? { queued_at: now } : {}),
      ...(status === 'running' ? { started_at: now, ...(current === 'created' ? { queued_at: now } : {}) } : {}),
      ...(COMPLETED.includes(status) ? { finished_at: now } : {}),
    };
    let build: CiBuildRow;
    if (reusable) {
      build = await trx.updateTable('ci_builds').set({ ...optional, ...times, status, updated_at: now }).where('id', '=', reusable.id).returningAll().executeTakeFirstOrThrow();
    } else {
      await trx.updateTable('ci_builds').set({ retried: 1, updated_at: now }).where('commit_id', '=', pipelineId).where('name', '=', input.name).where('retried', '=', 0).execute();
      build = await trx
        .insertInto('ci_builds')
        .values({
          project_id: projectId, commit_id: pipelineId, type: 'GenericCommitStatus', name: input.name, stage: EXTERNAL_STAGE, stage_idx: EXTERNAL_STAGE_IDX,
          ref: refName, status, target_url: null, description: null, coverage: null, user_id: userId, created_at: now, updated_at: now,
          queued_at: null, started_at: null, finished_at: null, ...optional, ...times,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    const latest = await trx.selectFrom('ci_builds').select(['status', 'allow_failure']).where('commit_id', '=', pipelineId).where('retried', '=', 0).execute();
    const pipelineStatus = compositeStatus(latest);
    const updated = await trx
      .updateTable('ci_pipelines')
      .set({
        status: pipelineStatus,
        updated_at: now,
        ...(pipeline.started_at === null && pipelineStatus === 'running' ? { started_at: now } : {}),
        finished_at: ACTIVE.includes(pipelineStatus) ? null : now,
      })
      .where('id', '=', pipelineId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (pipeline.status !== pipelineStatus) {
      await deps.domainEvents.publish(trx, { kind: 'pipeline.status_changed', projectId, actorId: userId, pipelineId, sha, ref: refName, status: pipelineStatus });
    }
    return { build, pipeline: updated };
  });
}
