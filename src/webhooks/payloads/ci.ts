// Pipeline Hook and Job Hook payloads (Gitlab::DataBuilder::Pipeline and ::Build), built in the
// transaction that moved the pipeline or the job (listeners.ts), so the statuses and times are those
// of the move. Read from CI's tables directly, as the other payloads read theirs.
import type { Selectable } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { CiBuildsTable, CiPipelinesTable, CiRunnersTable } from '../../platform/db/tables/ci.js';
import { ZERO_OID } from '../../repositories/api.js';
import { commitAttrs, commitForHook, hookTime, projectAttrs, projectForHook, pushRepositoryAttrs, userAttrs, usersForHook, type ProjectHookRow, type UserHookRow } from './common.js';

type PipelineRow = Selectable<CiPipelinesTable>;
type BuildRow = Selectable<CiBuildsTable>;
type RunnerRow = Selectable<CiRunnersTable>;

/** GitLab's detailed status labels (Gitlab::Ci::Status::*#label). */
const LABELS: Record<string, string> = {
  created: 'created', waiting_for_resource: 'waiting for resource', preparing: 'preparing', pending: 'pending', running: 'running',
  success: 'passed', failed: 'failed', canceled: 'canceled', skipped: 'skipped', manual: 'manual action', scheduled: 'delayed',
};

const seconds = (from: number | null, to: number | null) => (from === null || to === null ? null : (Number(to) - Number(from)) / 1000);

/** A job's duration (running until now when unfinished), as GitLab's Ci::Build#duration. */
function buildDuration(build: BuildRow, now: number): number | null {
  return build.started_at === null ? null : seconds(build.started_at, build.finished_at ?? now);
}

function buildQueuedDuration(build: BuildRow, now: number): number | null {
  return build.queued_at === null ? null : seconds(build.queued_at, build.started_at ?? now);
}

/** A finished pipeline's duration: the seconds during which any of its jobs ran (overlaps counted once), as GitLab's Ci::Pipeline#duration. */
function pipelineDuration(pipeline: PipelineRow, builds: BuildRow[]): number | null {
  if (pipeline.finished_at === null) return null;
  const periods = builds
    .filter((build) => build.started_at !== null && build.finished_at !== null)
    .map((build) => [Number(build.started_at), Number(build.finished_at)] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [start, finish] of periods) {
    if (finish <= end) continue;
    total += finish - Math.max(start, end);
    end = finish;
  }
  return periods.length === 0 ? null : Math.round(total / 1000);
}

function runnerAttrs(runner: RunnerRow | undefined) {
  if (!runner) return null;
  return {
    id: Number(runner.id),
    description: runner.description,
    runner_type: runner.runner_type,
    active: Number(runner.active) === 1,
    is_shared: runner.runner_type === 'instance_type',
    tags: JSON.parse(runner.tag_list) as string[],
  };
}

/** The job's `environment:` keyword (null without one): its expanded name and action. */
function environmentKeyword(build: BuildRow): { name: string; action: string } | null {
  if (build.environment === null) return null;
  let action = 'start';
  try {
    const options = build.options ? (JSON.parse(build.options) as { environment?: { action?: string } | null }) : null;
    action = options?.environment?.action ?? 'start';
  } catch {
    // Options are written by Kiln; an unreadable one leaves GitLab's default action.
  }
  return { name: build.environment, action };
}

/** What the jobs of a payload name: runners, users, archives and the tiers of their environments. */
async function buildFacts(deps: Deps, projectId: number, builds: BuildRow[]) {
  const ids = builds.map((build) => Number(build.id));
  const runnerIds = [...new Set(builds.map((build) => build.runner_id).filter((id): id is number => id !== null).map(Number))];
  const environments = [...new Set(builds.map((build) => build.environment).filter((name): name is string => name !== null))];
  const [runners, archives, tiers, users] = await Promise.all([
    runnerIds.length ? deps.db.selectFrom('ci_runners').selectAll().where('id', 'in', runnerIds).execute() : [],
    ids.length ? deps.db.selectFrom('ci_job_artifacts').select(['build_id', 'filename', 'size']).where('build_id', 'in', ids).where('file_type', '=', 'archive').execute() : [],
    environments.length ? deps.db.selectFrom('environments').select(['name', 'tier']).where('project_id', '=', projectId).where('name', 'in', environments).execute() : [],
    usersForHook(deps, builds.map((build) => (build.user_id === null ? null : Number(build.user_id)))),
  ]);
  return {
    runner: (build: BuildRow) => runners.find((runner) => Number(runner.id) === Number(build.runner_id)),
    archive: (build: BuildRow) => archives.find((archive) => Number(archive.build_id) === Number(build.id)),
    tier: (name: string) => tiers.find((row) => row.name === name)?.tier ?? null,
    user: (build: BuildRow): UserHookRow | undefined => (build.user_id === null ? undefined : users.get(Number(build.user_id))),
  };
}

async function mergeRequestOf(deps: Deps, pipeline: PipelineRow, webUrl: string) {
  const iid = pipeline.source === 'merge_request_event' ? /^refs\/merge-requests\/(\d+)\//.exec(pipeline.ref ?? '')?.[1] : undefined;
  if (iid === undefined) return null;
  const mr = await deps.db
    .selectFrom('merge_requests')
    .select(['id', 'iid', 'title', 'source_branch', 'source_project_id', 'target_branch', 'target_project_id', 'state', 'merge_status'])
    .where('target_project_id', '=', Number(pipeline.project_id))
    .where('iid', '=', Number(iid))
    .executeTakeFirst();
  if (!mr) return null;
  return {
    id: Number(mr.id), iid: Number(mr.iid), title: mr.title, source_branch: mr.source_branch, source_project_id: Number(mr.source_project_id),
    target_branch: mr.target_branch, target_project_id: Number(mr.target_project_id), state: mr.state, merge_status: mr.merge_status,
    url: `${webUrl}/-/merge_requests/${mr.iid}`,
  };
}

/** The Pipeline Hook (object_kind `pipeline`), its status the one the event reported. */
export async function pipelineHookData(deps: Deps, input: { pipelineId: number; status: string }) {
  const pipeline = await deps.db.selectFrom('ci_pipelines').selectAll().where('id', '=', input.pipelineId).executeTakeFirst();
  if (!pipeline) return null;
  const project = await projectForHook(deps, Number(pipeline.project_id));
  if (!project) return null;
  const now = deps.clock.now();
  const attrs = projectAttrs(deps, project);
  const latest = await deps.db.selectFrom('ci_builds').selectAll().where('commit_id', '=', pipeline.id).where('retried', '=', 0).orderBy('stage_idx').orderBy('id').execute();
  // builds[] lists CI jobs only (GitLab's latest_builds); the stages count commit statuses too.
  const builds = latest.filter((build) => build.type === 'Ci::Build');
  const [facts, users, commit, mergeRequest] = await Promise.all([
    buildFacts(deps, Number(pipeline.project_id), builds),
    usersForHook(deps, [pipeline.user_id === null ? null : Number(pipeline.user_id)]),
    commitForHook(deps, Number(pipeline.project_id), pipeline.sha),
    mergeRequestOf(deps, pipeline, attrs.web_url),
  ]);
  const status = input.status;
  const warnings = status === 'success' && builds.some((build) => build.status === 'failed' && Number(build.allow_failure) === 1);
  const variables = pipeline.variables ? (JSON.parse(pipeline.variables) as Array<{ key: string; value: string }>) : [];
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: Number(pipeline.id),
      iid: Number(pipeline.iid),
      name: null,
      ref: pipeline.ref,
      tag: Number(pipeline.tag) === 1,
      sha: pipeline.sha,
      before_sha: pipeline.before_sha ?? ZERO_OID,
      source: pipeline.source,
      status,
      detailed_status: warnings ? 'passed with warnings' : (LABELS[status] ?? status),
      stages: [...new Set(latest.map((build) => build.stage))],
      created_at: hookTime(pipeline.created_at),
      finished_at: hookTime(pipeline.finished_at),
      duration: pipelineDuration(pipeline, latest),
      queued_duration: pipeline.started_at === null ? null : Math.round((Number(pipeline.started_at) - Number(pipeline.created_at)) / 1000),
      protected_ref: latest.some((build) => Number(build.protected) === 1),
      variables: variables.map((variable) => ({ key: variable.key, value: variable.value })),
      url: `${attrs.web_url}/-/pipelines/${pipeline.id}`,
    },
    merge_request: mergeRequest,
    user: userAttrs(deps, pipeline.user_id === null ? undefined : users.get(Number(pipeline.user_id))),
    project: attrs,
    commit: commit && commitAttrs(attrs.web_url, commit),
    builds: builds.map((build) => {
      const archive = facts.archive(build);
      const environment = environmentKeyword(build);
      return {
        id: Number(build.id),
        stage: build.stage,
        name: build.name,
        status: build.status,
        created_at: hookTime(build.created_at),
        started_at: hookTime(build.started_at),
        finished_at: hookTime(build.finished_at),
        duration: buildDuration(build, now),
        queued_duration: buildQueuedDuration(build, now),
        failure_reason: build.status === 'failed' ? (build.failure_reason ?? 'unknown_failure') : null,
        when: build.when ?? 'on_success',
        manual: build.when === 'manual',
        allow_failure: Number(build.allow_failure) === 1,
        user: userAttrs(deps, facts.user(build)),
        runner: runnerAttrs(facts.runner(build)),
        artifacts_file: { filename: archive?.filename ?? null, size: archive ? Number(archive.size) : null },
        environment: environment && { ...environment, deployment_tier: facts.tier(environment.name) },
      };
    }),
  };
}

/** The author's profile when a user has the commit's author e-mail, else a mailto: link (GitLab's author_url). */
async function authorUrl(deps: Deps, email: string | undefined): Promise<string | null> {
  if (!email) return null;
  const user = await deps.db.selectFrom('users').select('username').where('email', '=', email).executeTakeFirst();
  return user ? `${deps.config.baseUrl}/${user.username}` : `mailto:${email}`;
}

/** GitLab's Project#full_name: the namespace's name (a nested group's path, each part spaced) and the project's. */
function fullName(project: ProjectHookRow): string {
  const namespacePath = project.full_path.slice(0, project.full_path.lastIndexOf('/'));
  return `${namespacePath.includes('/') ? namespacePath.replace(/\//g, ' / ') : project.namespace_name} / ${project.name}`;
}

/** The Job Hook (object_kind `build`), its status the one the event reported. */
export async function jobHookData(deps: Deps, input: { buildId: number; status: string }) {
  const build = await deps.db.selectFrom('ci_builds').selectAll().where('id', '=', input.buildId).executeTakeFirst();
  if (!build) return null;
  const pipeline = await deps.db.selectFrom('ci_pipelines').selectAll().where('id', '=', build.commit_id).executeTakeFirst();
  const project = await projectForHook(deps, Number(build.project_id));
  if (!pipeline || !project) return null;
  const now = deps.clock.now();
  const attrs = projectAttrs(deps, project);
  const [facts, commit] = await Promise.all([buildFacts(deps, Number(build.project_id), [build]), commitForHook(deps, Number(build.project_id), pipeline.sha)]);
  return {
    object_kind: 'build',
    ref: build.ref,
    tag: Number(build.tag) === 1,
    before_sha: pipeline.before_sha ?? ZERO_OID,
    sha: pipeline.sha,
    build_id: Number(build.id),
    build_name: build.name,
    build_stage: build.stage,
    build_status: input.status,
    build_created_at: hookTime(build.created_at),
    build_started_at: hookTime(build.started_at),
    build_finished_at: hookTime(build.finished_at),
    build_duration: buildDuration(build, now),
    build_queued_duration: buildQueuedDuration(build, now),
    build_allow_failure: Number(build.allow_failure) === 1,
    build_failure_reason: build.failure_reason ?? (input.status === 'failed' ? 'unknown_failure' : null),
    retries_count: Number(build.retries),
    pipeline_id: Number(pipeline.id),
    runner: runnerAttrs(facts.runner(build)),
    project_id: Number(project.id),
    project_name: fullName(project),
    user: userAttrs(deps, facts.user(build)),
    commit: {
      // GitLab's quirk: the commit's id is the pipeline's.
      id: Number(pipeline.id),
      name: null,
      sha: pipeline.sha,
      message: commit?.message ?? null,
      author_name: commit?.author.name ?? null,
      author_email: commit?.author.email ?? null,
      author_url: await authorUrl(deps, commit?.author.email),
      status: pipeline.status,
      duration: pipeline.finished_at === null || pipeline.started_at === null ? null : Math.round((Number(pipeline.finished_at) - Number(pipeline.started_at)) / 1000),
      started_at: hookTime(pipeline.started_at),
      finished_at: hookTime(pipeline.finished_at),
    },
    repository: pushRepositoryAttrs(deps, project),
    project: attrs,
    environment: environmentKeyword(build),
  };
}
