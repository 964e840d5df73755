// The job a runner is handed (GitLab's Entities::Ci::JobRequest::Response through
// Ci::BuildRunnerPresenter): its token, git_info to fetch the commit over HTTP with the job token,
// the variables (predefined, YAML, pipeline), the steps (before_script + script, after_script), image
// and services as written, artifacts to upload and the dependencies whose artifacts to download.
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { projectSetting, projectWebUrl } from '../../accounts/api.js';
import type { CiBuildRow, CiPipelineRow } from '../../commit-statuses/api.js';
import { readOptions } from '../pipelines/build-options.js';
import { ciSlug, pipelineVariables } from '../variables.js';
import type { CiRunnerRow } from '../entities.js';
import { mergeRequestPipelineFacts } from '../pipelines/merge-request-variables.js';
import { settingsVariables, type JobVariable as Variable } from '../cicd-variables/job-variables.js';
import { pipelineCommit } from './pipeline-commit.js';

/**
 * A job's timeout in seconds (GitLab's Ci::Builds::TimeoutCalculator): its `timeout:`, else the
 * project's `build_timeout`, capped by the runner's `maximum_timeout`.
 */
export function jobTimeout(timeout: number | null | undefined, project: Pick<ProjectRow, 'settings'>, maximumTimeout: number | null): number {
  return Math.min(timeout ?? Number(projectSetting(project, 'build_timeout')), maximumTimeout ?? Number.MAX_SAFE_INTEGER);
}

/**
 * How deep the runner fetches (GitLab's BuildRunnerPresenter#git_depth): a GIT_DEPTH variable the job
 * sees (the last of that name, the one that wins) read as Ruby's to_i reads it, else the project's
 * `ci_default_git_depth`; 0 fetches the whole history.
 */
function gitDepth(variables: Variable[], project: Pick<ProjectRow, 'settings'>): number {
  const variable = variables.filter((candidate) => candidate.key === 'GIT_DEPTH').pop();
  if (!variable) return Number(projectSetting(project, 'ci_default_git_depth'));
  return Number.parseInt(variable.value, 10) || 0;
}

/** What the runner fetches: the pipeline's ref at a depth, or with the full history every branch and tag (as GitLab does). */
function refspecs(ref: string, tag: boolean, depth: number): string[] {
  const own = tag ? `+refs/tags/${ref}:refs/tags/${ref}` : ref.startsWith('refs/') ? `+${ref}:${ref}` : `+refs/heads/${ref}:refs/remotes/origin/${ref}`;
  if (depth > 0) return [own];
  // A merge request's ref is in neither wildcard, so it stays.
  return [...(ref.startsWith('refs/') && !tag ? [own] : []), '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'];
}
const FAILURE_REASONS = ['unknown_failure', 'script_failure', 'runner_system_failure', 'job_execution_timeout', 'stuck_or_timeout_failure', 'runner_unsupported', 'api_failure'];

const open = (key: string, value: string): Variable => ({ key, value, public: true, file: false, masked: false, raw: false });

export async function jobPayload(deps: Deps, input: { build: CiBuildRow; token: string; pipeline: CiPipelineRow; project: ProjectRow; runner: CiRunnerRow }) {
  const { build, token, pipeline, project, runner } = input;
  const options = readOptions(build.options)!;
  const base = deps.config.baseUrl.replace(/\/$/, '');
  const projectUrl = projectWebUrl(deps.config.baseUrl, project.full_path);
  const url = new URL(`${base}/${project.full_path}.git`);
  url.username = 'gitlab-ci-token';
  url.password = token;
  const repoUrl = url.toString();
  const tag = Number(pipeline.tag) === 1;
  const ref = pipeline.ref ?? '';
  const timeout = jobTimeout(options.timeout, project, runner.maximum_timeout);
  const environment = options.environment;
  // The reads are independent: asked at once, on PostgreSQL they wait for one round trip, not five.
  const [commit, user, mergeRequest, settings, dependencyJobs] = await Promise.all([
    pipelineCommit(deps, project, pipeline.sha),
    build.user_id === null ? undefined : deps.db.selectFrom('users').select(['id', 'username', 'name', 'email']).where('id', '=', build.user_id).executeTakeFirst(),
    // A merge request pipeline: its CI_MERGE_REQUEST_* variables, and the source branch as its ref name.
    pipeline.merge_request_id === null ? null : mergeRequestPipelineFacts(deps, deps.db, Number(pipeline.merge_request_id)),
    settingsVariables(deps.db, deps.box, project, { protected: Number(build.protected) === 1, environment: environment?.name ?? null }),
    dependencies(deps, build, options, token),
  ]);

  const variables: Variable[] = [
    ...Object.entries({
      ...pipelineVariables(deps, project, { ref, tag, sha: pipeline.sha, beforeSha: pipeline.before_sha, source: pipeline.source, commit: commit ?? undefined, sourceBranch: mergeRequest?.sourceBranch }),
      ...(mergeRequest?.variables ?? {}),
    }).map(([key, value]) => open(key, value)),
    open('CI_SERVER', 'yes'),
    open('CI_PIPELINE_ID', String(pipeline.id)),
    open('CI_PIPELINE_IID', String(pipeline.iid)),
    open('CI_PIPELINE_URL', `${projectUrl}/-/pipelines/${pipeline.id}`),
    open('CI_PIPELINE_CREATED_AT', new Date(Number(pipeline.created_at)).toISOString().replace(/\.\d{3}Z$/, 'Z')),
    open('CI_JOB_ID', String(build.id)),
    open('CI_JOB_NAME', build.name),
    open('CI_JOB_STAGE', build.stage),
    open('CI_JOB_URL', `${projectUrl}/-/jobs/${build.id}`),
    open('CI_JOB_STARTED_AT', new Date(Number(build.started_at ?? deps.clock.now())).toISOString().replace(/\.\d{3}Z$/, 'Z')),
    ...(build.when === 'manual' ? [open('CI_JOB_MANUAL', 'true')] : []),
    { ...open('CI_JOB_TOKEN', token), public: false, masked: true },
    { ...open('CI_REPOSITORY_URL', repoUrl), public: false, masked: false },
    open('CI_REGISTRY_USER', 'gitlab-ci-token'),
    // An instance of a `parallel:` job knows its place among them (GitLab sets the index only then).
    ...(options.node ? [open('CI_NODE_INDEX', String(options.node.index))] : []),
    open('CI_NODE_TOTAL', String(options.node?.total ?? 1)),
    open('CI_RUNNER_ID', String(runner.id)),
    open('CI_RUNNER_DESCRIPTION', runner.description),
    open('CI_RUNNER_TAGS', JSON.stringify(JSON.parse(runner.tag_list))),
    ...(user ? [open('GITLAB_USER_ID', String(user.id)), open('GITLAB_USER_LOGIN', user.username), open('GITLAB_USER_NAME', user.name), open('GITLAB_USER_EMAIL', user.email)] : []),
    ...(environment
      ? [
          open('CI_ENVIRONMENT_NAME', environment.name),
          open('CI_ENVIRONMENT_SLUG', ciSlug(environment.name)),
          open('CI_ENVIRONMENT_ACTION', environment.action),
          ...(environment.url ? [open('CI_ENVIRONMENT_URL', environment.url)] : []),
          ...(environment.deploymentTier ? [open('CI_ENVIRONMENT_TIER', environment.deploymentTier)] : []),
        ]
      : []),
    ...(options.image ? [open('CI_JOB_IMAGE', options.image.name)] : []),
    ...Object.entries(options.variables).map(([key, value]) => open(key, value)),
    // Instance, group and project variables rank above the file's and below the pipeline's.
    ...settings,
    ...(pipeline.variables ? (JSON.parse(pipeline.variables) as Array<{ key: string; value: string; variable_type: string }>) : []).map((variable) => ({
      ...open(variable.key, variable.value), public: false, file: variable.variable_type === 'file',
    })),
  ];

  const depth = gitDepth(variables, project);
  const steps = [{ name: 'script', script: [...(options.beforeScript ?? []), ...options.script], timeout, when: 'on_success', allow_failure: false }];
  if (options.afterScript) steps.push({ name: 'after_script', script: options.afterScript, timeout, when: 'always', allow_failure: true });

  const artifacts = options.artifacts && (options.artifacts.paths.length > 0 || options.artifacts.untracked)
    ? [{
        name: options.artifacts.name ?? 'artifacts', untracked: options.artifacts.untracked, paths: options.artifacts.paths,
        ...(options.artifacts.exclude.length ? { exclude: options.artifacts.exclude } : {}),
        when: options.artifacts.when, expire_in: options.artifacts.expireIn ?? null, artifact_type: 'archive', artifact_format: 'zip',
      }]
    : null;

  return {
    id: Number(build.id),
    token,
    // GitLab Runner's GIT_STRATEGY when no variable names one: fetch into the last checkout, or clone afresh.
    allow_git_fetch: projectSetting(project, 'build_git_strategy') === 'fetch',
    job_info: {
      id: Number(build.id), name: build.name, stage: build.stage, project_id: Number(project.id), project_name: project.name, pipeline_id: Number(pipeline.id),
      project_full_path: project.full_path, namespace_id: Number(project.namespace_id), user_id: build.user_id === null ? null : Number(build.user_id),
      time_in_queue_seconds: build.queued_at !== null && build.started_at !== null ? Math.round((Number(build.started_at) - Number(build.queued_at)) / 1000) : 0,
    },
    git_info: {
      repo_url: repoUrl,
      ref,
      sha: pipeline.sha,
      before_sha: pipeline.before_sha ?? '0000000000000000000000000000000000000000',
      ref_type: tag ? 'tag' : 'branch',
      refspecs: refspecs(ref, tag, depth),
      depth,
      repo_object_format: 'sha1',
    },
    runner_info: { timeout, runner_session_url: null },
    variables,
    steps,
    image: options.image ? { name: options.image.name, entrypoint: options.image.entrypoint ?? null, ports: options.image.ports ?? [], ...(options.image.pull_policy ? { pull_policy: options.image.pull_policy } : {}) } : null,
    services: options.services.map((service) => ({
      name: service.name, entrypoint: service.entrypoint ?? null, ports: service.ports ?? [], alias: service.alias ?? null, command: service.command ?? null,
      variables: Object.entries(service.variables ?? {}).map(([key, value]) => open(key, value)),
    })),
    artifacts,
    // The runner restores and saves these (`kiln runner` in its cache dir, GitLab Runner in its own).
    cache: options.resolvedCache ?? [],
    credentials: [],
    dependencies: dependencyJobs,
    features: { trace_sections: true, failure_reasons: FAILURE_REASONS },
  };
}

/**
 * The jobs whose artifacts the runner downloads: `dependencies:`, else `needs` with artifacts, else
 * every earlier stage; each with its unexpired archive, in one statement that reads only those jobs.
 */
async function dependencies(deps: Deps, build: CiBuildRow, options: NonNullable<ReturnType<typeof readOptions>>, token: string) {
  const names = options.dependencies ?? options.needs?.filter((need) => need.artifacts).map((need) => need.job) ?? null;
  if (names?.length === 0) return [];
  const now = deps.clock.now();
  let query = deps.db
    .selectFrom('ci_builds as b')
    .leftJoin('ci_job_artifacts as a', (join) =>
      join.onRef('a.build_id', '=', 'b.id').on('a.file_type', '=', 'archive').on((eb) => eb.or([eb('a.expire_at', 'is', null), eb('a.expire_at', '>', now)])),
    )
    .select(['b.id', 'b.name', 'a.filename', 'a.size'])
    .where('b.commit_id', '=', build.commit_id)
    .where('b.retried', '=', 0)
    .where('b.type', '=', 'Ci::Build')
    .where('b.id', '!=', build.id);
  query = names ? query.where('b.name', 'in', names) : query.where('b.stage_idx', '<', build.stage_idx);
  const chosen = await query.orderBy('b.id').execute();
  return chosen.map((row) => ({
    id: Number(row.id), name: row.name, token, ...(row.filename !== null ? { artifacts_file: { filename: row.filename, size: Number(row.size) } } : {}),
  }));
}
