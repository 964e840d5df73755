// Creating a pipeline (GitLab's Ci::CreatePipelineService): the `.gitlab-ci.yml` of the commit is read
// and parsed, `workflow:rules` and each job's `rules` / `only` / `except` choose the jobs, and the
// pipeline and its jobs are written in one transaction, then processed (the first stage's jobs become
// pending for the runners). A push whose commit message asks `[skip ci]` makes a `skipped` pipeline
// with no jobs; a configuration with errors makes a `failed` one with its `yaml_errors` (push and web),
// or GitLab's 400 (API). Once it committed, the older pipelines of its ref it makes redundant are
// auto-cancelled (cancel-redundant-pipelines.ts).
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { inTransaction } from '../../platform/db/database.js';
import { featureLevel } from '../../platform/auth/policies/policy.js';
import { nextInternalId } from '../../platform/db/internal-ids.js';
import { findCommit, readableRepository, type CommitObject } from '../../repositories/api.js';
import { createJobDeployment } from '../../environments/api.js';
import { parseCiConfigWithIncludes } from '../config/includes.js';
import { includeContext } from './include-reader.js';
import { ciConfigPath, readCiConfigAt } from './config-path.js';
import { RuleClauseError, readRuleFiles } from './rule-files.js';
import { otherProjectTree } from './include-reader.js';
import { resolveCaches } from './cache-keys.js';
import type { ResolvedCache } from '../config/parse-config.js';
import { selectJobs, workflowAllows, type PipelineContext } from './select-jobs.js';
import { processPipeline } from './process-pipeline.js';
import { jobStatusChanged } from './job-status-changed.js';
import { expandVariables, pipelineVariables } from '../variables.js';
import { isProtectedRef } from './protected-ref.js';
import { jobResourceGroup } from '../resource-groups/group-for-job.js';
import type { CiPipelineRow } from '../../commit-statuses/api.js';
import type { MergeRequestPipelineFacts } from './merge-request-variables.js';
import { cancelRedundantPipelines } from './cancel-redundant-pipelines.js';
import { projectSetting } from '../../accounts/api.js';

const SKIP_CI = /\[(ci[ _-]skip|skip[ _-]ci)\]/i;

export interface CreatePipelineInput {
  project: ProjectRow;
  ref: string;
  tag: boolean;
  sha?: string;
  beforeSha?: string | null;
  source: 'push' | 'web' | 'api' | 'trigger' | 'schedule' | 'merge_request_event';
  userId: number | null;
  variables?: Array<{ key: string; value: string; variable_type?: string }>;
  /** The schedule that runs it (source `schedule`). */
  pipelineScheduleId?: number;
  /** The merge request of a `merge_request_event` pipeline: `ref` is then its `refs/merge-requests/<iid>/head`. */
  mergeRequest?: MergeRequestPipelineFacts;
  /**
   * Made by an event rather than asked for (default: a push): nothing to run is no pipeline instead of
   * an error, and a file with errors makes a failed pipeline.
   */
  background?: boolean;
}

/** GitLab's refusal when the project's builds_access_level is `disabled` (Chain::Validate::Abilities). */
export const PIPELINES_DISABLED = 'Pipelines are disabled!';

/** Whether the project runs no CI of its own: no pipeline is made, whoever asks (a push makes none). */
export function pipelinesDisabled(project: ProjectRow): boolean {
  return featureLevel(project, 'builds') === 'disabled';
}

export class PipelineCreationError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join(', '));
  }
}

/** Creates the pipeline, or null when there is nothing to run (no file on a push, workflow rules, no jobs). */
export async function createPipeline(deps: Deps, input: CreatePipelineInput): Promise<CiPipelineRow | null> {
  const project = input.project;
  const projectId = Number(project.id);
  if (pipelinesDisabled(project)) {
    if (input.background ?? input.source === 'push') return null;
    throw new PipelineCreationError([PIPELINES_DISABLED]);
  }
  const repoPath = await readableRepository(deps, project);
  const revision = input.sha ?? (input.tag ? `refs/tags/${input.ref}` : `refs/heads/${input.ref}`);
  const commit: CommitObject | null = repoPath ? await findCommit(repoPath, revision) : null;
  const background = input.background ?? input.source === 'push';
  const fail = (message: string) => {
    if (background) return null;
    throw new PipelineCreationError([message]);
  };
  if (!repoPath || !commit) return fail(input.sha ? 'Commit not found' : 'Reference not found');
  const content = await readCiConfigAt(repoPath, commit.id, ciConfigPath(project));
  if (content === null) return fail('Missing CI config file');
  const now = deps.clock.now();
  const context: PipelineContext = {
    ref: input.ref,
    tag: input.tag,
    source: input.source,
    variables: {
      ...pipelineVariables(deps, project, { ref: input.ref, tag: input.tag, sha: commit.id, beforeSha: input.beforeSha ?? null, source: input.source, commit, sourceBranch: input.mergeRequest?.sourceBranch }),
      ...(input.mergeRequest?.variables ?? {}),
      ...Object.fromEntries((input.variables ?? []).map((variable) => [variable.key, variable.value])),
    },
  };
  const skip = (input.source === 'push' || input.source === 'merge_request_event') && SKIP_CI.test(commit.message);
  let parsed = skip
    ? null
    : typeof content === 'string'
      ? await parseCiConfigWithIncludes(content, includeContext(deps, project, commit.id, input.userId, context.variables), deps.config.baseUrl)
      : { errors: ['The parsed YAML is too big'], warnings: [], config: null, mergedYaml: null };
  if (parsed?.config) {
    // `rules:changes` and `rules:exists` read the diff and the tree once, when a rule asks.
    try {
      const files = await readRuleFiles(repoPath, parsed.config, {
        sha: commit.id, beforeSha: input.beforeSha ?? null, tag: input.tag, source: input.source, diffBaseSha: input.mergeRequest?.variables.CI_MERGE_REQUEST_DIFF_BASE_SHA,
        variables: context.variables,
      }, otherProjectTree(deps, input.userId));
      if (files) context.files = files;
    } catch (error) {
      if (!(error instanceof RuleClauseError)) throw error;
      parsed = { ...parsed, errors: [error.message], config: null };
    }
  }
  if (parsed && parsed.errors.length && !background && input.source !== 'web' && input.source !== 'merge_request_event') throw new PipelineCreationError(parsed.errors);
  const config = parsed?.config ?? null;
  let selected = config ? selectJobs(config, context) : [];
  if (config) {
    const workflow = workflowAllows(config, context);
    if (!workflow.allowed) return fail('Pipeline filtered out by workflow rules.');
    selected = selectJobs(config, { ...context, variables: { ...workflow.variables, ...context.variables } });
    if (selected.length === 0) return fail('No stages / jobs for this pipeline.');
  }
  const stages = config?.stages ?? [];
  const pipelineStatus = skip ? 'skipped' : config ? 'created' : 'failed';
  const protectedRef = await isProtectedRef(deps.db, projectId, input.ref, input.tag);
  // Cache keys from files read git: before the transaction, not inside it.
  const caches = new Map<string, ResolvedCache[]>();
  const separatedCaches = projectSetting(project, 'ci_separated_caches') === true;
  for (const job of selected) if (job.definition.cache) caches.set(job.definition.name, await resolveCaches(repoPath, commit.id, job.definition.cache, protectedRef, separatedCaches));

  const created = await inTransaction(deps.db, async (trx) => {
    const iid = await nextInternalId(trx, projectId, 'ci_pipelines');
    const pipeline = await trx
      .insertInto('ci_pipelines')
      .values({
        project_id: projectId, iid, sha: commit.id, ref: input.ref, tag: input.tag ? 1 : 0, before_sha: input.beforeSha ?? null, source: input.source,
        status: pipelineStatus, user_id: input.userId, created_at: now, updated_at: now, started_at: null, finished_at: config ? null : now,
        yaml_errors: parsed && !config ? parsed.errors.join(', ') : null, failure_reason: parsed && !config ? 'config_error' : null,
        variables: input.variables?.length ? JSON.stringify(input.variables.map((variable) => ({ key: variable.key, value: variable.value, variable_type: variable.variable_type ?? 'env_var' }))) : null,
        stages: JSON.stringify(stages), pipeline_schedule_id: input.pipelineScheduleId ?? null, merge_request_id: input.mergeRequest?.id ?? null,
        auto_cancel_on_new_commit: config?.autoCancel?.onNewCommit ?? null, auto_cancel_on_job_failure: config?.autoCancel?.onJobFailure ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const pipelineId = Number(pipeline.id);
    for (const job of selected) {
      // An environment's name and URL, and the tags, may use variables (a matrix job's values among them):
      // GitLab expands them when the pipeline is created.
      const known = { ...context.variables, ...(config?.variables ?? {}), ...job.variables };
      const environment = job.definition.environment
        ? { ...job.definition.environment, name: expandVariables(job.definition.environment.name, known), ...(job.definition.environment.url ? { url: expandVariables(job.definition.environment.url, known) } : {}) }
        : null;
      const options = { ...job.definition, variables: { ...(config?.variables ?? {}), ...job.variables }, environment, resolvedCache: caches.get(job.definition.name) ?? [] };
      const resourceGroupId = await jobResourceGroup(trx, deps, project, { ...job.definition, environmentName: environment?.name ?? null }, known);
      const build = await trx
        .insertInto('ci_builds')
        .values({
          project_id: projectId, commit_id: pipelineId, type: 'Ci::Build', name: job.definition.name, stage: job.definition.stage, stage_idx: stages.indexOf(job.definition.stage),
          ref: input.ref, status: 'created', target_url: null, description: null, coverage: null, allow_failure: job.allowFailure ? 1 : 0, user_id: input.userId,
          created_at: now, updated_at: now, queued_at: null, started_at: null, finished_at: null, when: job.when, options: JSON.stringify(options),
          tag: input.tag ? 1 : 0, tag_list: JSON.stringify(job.definition.tags.map((tag) => expandVariables(tag, known))), protected: protectedRef ? 1 : 0, environment: environment?.name ?? null,
          resource_group_id: resourceGroupId,
        })
        .returning(['id', 'project_id', 'user_id'])
        .executeTakeFirstOrThrow();
      if (environment) {
        await createJobDeployment(trx, deps, {
          projectId, buildId: Number(build.id), environment, ref: input.ref, sha: commit.id, tag: input.tag, userId: input.userId,
        });
      }
      await jobStatusChanged(trx, deps, build, 'created');
    }
    if (config) await processPipeline(trx, deps, pipelineId);
    return trx.selectFrom('ci_pipelines').selectAll().where('id', '=', pipelineId).executeTakeFirstOrThrow();
  });
  // A skipped pipeline or one whose file has errors cancels nothing (GitLab's chain stops before).
  if (config && !skip) {
    // The pipeline exists whatever happens to the others: a failure here is logged, not the caller's
    // (a push's background job run again would make a second pipeline).
    try {
      // The ref's head: an older pipeline run for it is not redundant. Without a sha the commit read
      // above is the head already.
      const head = input.sha === undefined && !input.mergeRequest ? commit : await findCommit(repoPath, input.mergeRequest ? input.ref : input.tag ? `refs/tags/${input.ref}` : `refs/heads/${input.ref}`);
      await cancelRedundantPipelines(deps, project, created, head?.id ?? null);
    } catch (error) {
      deps.log.error({ err: error, pipelineId: Number(created.id) }, 'auto-cancelling redundant pipelines failed');
    }
  }
  return created;
}
