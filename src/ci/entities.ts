// Wire shapes of CI: GitLab's Job entity (Entities::Ci::Job), the deployable of a deployment (the
// specification's field set), runners (Entities::Ci::Runner, RunnerDetails) and the pipeline variables.
// `presentJobs` reads what a page of jobs names (users, commits, pipelines, runners, artifacts) in a
// few queries.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { isoTime } from '../platform/clock.js';
import { projectWebUrl, userProfile, type UserRow } from '../accounts/api.js';
import { commitEntity, readCommits, readableRepository, type CommitObject } from '../repositories/api.js';
import { pipelineBasicEntity, type CiBuildRow, type CiPipelineRow } from '../commit-statuses/api.js';
import type { Selectable } from 'kysely';
import type { CiRunnersTable } from '../platform/db/tables/ci.js';

export type CiRunnerRow = Selectable<CiRunnersTable>;

export interface JobArtifact {
  file_type: string;
  size: number;
  filename: string;
  file_format: string | null;
  expire_at: number | null;
}

export interface JobFacts {
  user: UserRow | undefined;
  commit: CommitObject | undefined;
  pipeline: CiPipelineRow;
  runner: CiRunnerRow | undefined;
  artifacts: JobArtifact[];
}

export function jobWebUrl(baseUrl: string, project: ProjectRow, jobId: number): string {
  return `${projectWebUrl(baseUrl, project.full_path)}/-/jobs/${jobId}`;
}

const seconds = (from: number | null, to: number | null) => (from !== null && to !== null ? (Number(to) - Number(from)) / 1000 : null);

function commitShape(baseUrl: string, project: ProjectRow, commit: CommitObject | undefined) {
  if (!commit) return null;
  const { trailers: _trailers, extended_trailers: _extended, ...shape } = commitEntity({ baseUrl, project }, commit);
  return shape;
}

export function runnerEntity(runner: CiRunnerRow, now: number) {
  const active = Number(runner.active) === 1;
  return {
    id: Number(runner.id),
    description: runner.description,
    ip_address: runner.ip_address,
    active,
    paused: !active,
    is_shared: runner.runner_type === 'instance_type',
    runner_type: runner.runner_type,
    name: runner.platform ? 'gitlab-runner' : null,
    online: runnerStatus(runner, now) === 'online',
    status: runnerStatus(runner, now),
  };
}

/** GitLab's ONLINE_CONTACT_TIMEOUT: a runner that asked for a job within it is online. */
export const RUNNER_ONLINE_MS = 2 * 3600_000;

/** GitLab's runner status: online when it asked within 2 hours, stale after 7 days, never_contacted before its first request. */
export function runnerStatus(runner: Pick<CiRunnerRow, 'contacted_at' | 'created_at'>, now: number): string {
  if (runner.contacted_at === null) return Number(runner.created_at) < now - 7 * 86400_000 ? 'stale' : 'never_contacted';
  const age = now - Number(runner.contacted_at);
  if (age < RUNNER_ONLINE_MS) return 'online';
  return age > 7 * 86400_000 ? 'stale' : 'offline';
}

export function runnerDetailsEntity(runner: CiRunnerRow, now: number, projects: Array<{ id: number; name: string; path: string; full_path: string; nameWithNamespace: string }>, groups: Array<{ id: number; name: string; web_url: string }>) {
  return {
    ...runnerEntity(runner, now),
    tag_list: JSON.parse(runner.tag_list) as string[],
    run_untagged: Number(runner.run_untagged) === 1,
    locked: Number(runner.locked) === 1,
    maximum_timeout: runner.maximum_timeout,
    access_level: runner.access_level,
    version: runner.version,
    revision: runner.revision,
    platform: runner.platform,
    architecture: runner.architecture,
    contacted_at: isoTime(runner.contacted_at),
    maintenance_note: runner.maintenance_note,
    projects: projects.map((project) => ({ id: project.id, name: project.name, name_with_namespace: project.nameWithNamespace, path: project.path, path_with_namespace: project.full_path })),
    groups,
  };
}

/** GitLab's Job entity (GET /projects/:id/jobs/:job_id). */
export function jobEntity(baseUrl: string, project: ProjectRow, build: CiBuildRow, facts: JobFacts, now: number) {
  const archive = facts.artifacts.find((artifact) => artifact.file_type === 'archive');
  return {
    id: Number(build.id),
    status: build.status,
    stage: build.stage,
    name: build.name,
    ref: build.ref,
    tag: Number(build.tag) === 1,
    coverage: build.coverage === null ? null : Number(build.coverage),
    allow_failure: Number(build.allow_failure) === 1,
    created_at: isoTime(build.created_at),
    started_at: isoTime(build.started_at),
    finished_at: isoTime(build.finished_at),
    erased_at: isoTime(build.erased_at),
    duration: seconds(build.started_at, build.finished_at ?? (build.started_at !== null ? now : null)),
    queued_duration: seconds(build.queued_at, build.started_at ?? (build.queued_at !== null ? now : null)),
    user: facts.user ? userProfile(baseUrl, facts.user) : null,
    commit: commitShape(baseUrl, project, facts.commit),
    pipeline: pipelineBasicEntity(baseUrl, facts.pipeline, project.full_path),
    ...(build.status === 'failed' ? { failure_reason: build.failure_reason ?? 'unknown_failure' } : {}),
    web_url: jobWebUrl(baseUrl, project, Number(build.id)),
    project: { ci_job_token_scope_enabled: false },
    ...(archive ? { artifacts_file: { filename: archive.filename, size: archive.size } } : {}),
    artifacts: facts.artifacts.map((artifact) => ({ file_type: artifact.file_type, size: artifact.size, filename: artifact.filename, file_format: artifact.file_format })),
    runner: facts.runner ? runnerEntity(facts.runner, now) : null,
    artifacts_expire_at: isoTime(build.artifacts_expire_at),
    tag_list: build.tag_list ? (JSON.parse(build.tag_list) as string[]) : [],
  };
}

/**
 * The job a deployment was made by, with exactly the specification's fields: id, status, stage, name,
 * ref, tag, coverage, created_at, started_at, finished_at, duration, user (the User entity's public
 * fields), commit, pipeline (id, sha, ref, status, web_url), web_url, artifacts, runner, artifacts_expire_at.
 */
export function deployableEntity(baseUrl: string, project: ProjectRow, build: CiBuildRow, facts: JobFacts, now: number) {
  const job = jobEntity(baseUrl, project, build, facts, now);
  const user = facts.user ? userProfile(baseUrl, facts.user) : null;
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: job.ref,
    tag: job.tag,
    coverage: job.coverage,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    duration: job.duration,
    user: user
      ? {
          id: user.id, username: user.username, name: user.name, state: user.state, avatar_url: user.avatar_url, web_url: user.web_url, created_at: user.created_at,
          bio: user.bio, location: user.location, public_email: user.public_email, skype: user.skype, linkedin: user.linkedin, twitter: user.twitter,
          website_url: user.website_url, organization: user.organization,
        }
      : null,
    commit: job.commit,
    pipeline: { id: job.pipeline.id, sha: job.pipeline.sha, ref: job.pipeline.ref, status: job.pipeline.status, web_url: job.pipeline.web_url },
    web_url: job.web_url,
    artifacts: job.artifacts,
    runner: job.runner,
    artifacts_expire_at: job.artifacts_expire_at,
  };
}

/** Everything a list of jobs of one project names, in one query per kind. */
export async function jobFacts(deps: Deps, project: ProjectRow, builds: CiBuildRow[]): Promise<Map<number, JobFacts>> {
  const facts = new Map<number, JobFacts>();
  if (builds.length === 0) return facts;
  const ids = builds.map((build) => Number(build.id));
  const userIds = [...new Set(builds.map((build) => build.user_id).filter((id): id is number => id !== null).map(Number))];
  const pipelineIds = [...new Set(builds.map((build) => Number(build.commit_id)))];
  const runnerIds = [...new Set(builds.map((build) => build.runner_id).filter((id): id is number => id !== null).map(Number))];
  const [users, pipelines, runners, artifacts] = await Promise.all([
    userIds.length ? deps.db.selectFrom('users').selectAll().where('id', 'in', userIds).execute() : [],
    deps.db.selectFrom('ci_pipelines').selectAll().where('id', 'in', pipelineIds).execute(),
    runnerIds.length ? deps.db.selectFrom('ci_runners').selectAll().where('id', 'in', runnerIds).execute() : [],
    deps.db.selectFrom('ci_job_artifacts').select(['build_id', 'file_type', 'file_format', 'filename', 'size', 'expire_at']).where('build_id', 'in', ids).execute(),
  ]);
  const repoPath = await readableRepository(deps, project);
  const shas = [...new Set(pipelines.map((pipeline) => pipeline.sha))];
  const commits = repoPath ? await readCommits(repoPath, shas) : new Map<string, CommitObject>();
  for (const build of builds) {
    const pipeline = pipelines.find((row) => Number(row.id) === Number(build.commit_id))!;
    facts.set(Number(build.id), {
      user: users.find((user) => Number(user.id) === Number(build.user_id)) as UserRow | undefined,
      commit: commits.get(pipeline.sha),
      pipeline,
      runner: runners.find((runner) => Number(runner.id) === Number(build.runner_id)),
      artifacts: artifacts
        .filter((artifact) => Number(artifact.build_id) === Number(build.id))
        .map((artifact) => ({ file_type: artifact.file_type, size: Number(artifact.size), filename: artifact.filename, file_format: artifact.file_format, expire_at: artifact.expire_at })),
    });
  }
  return facts;
}

export async function presentJobs(deps: Deps, project: ProjectRow, builds: CiBuildRow[]) {
  const facts = await jobFacts(deps, project, builds);
  return builds.map((build) => jobEntity(deps.config.baseUrl, project, build, facts.get(Number(build.id))!, deps.clock.now()));
}

