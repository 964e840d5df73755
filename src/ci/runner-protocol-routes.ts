// GitLab's runner protocol (API::Ci::Runner), as GitLab Runner and `kiln runner` speak it: register
// (`POST /runners` with a registration token; `POST /runners/verify` for a `glrt-` token), unregister,
// ask for a job (`POST /jobs/request`, long polling on the queue value `X-GitLab-Last-Update`), report
// its state (`PUT /jobs/:id`), append its log (`PATCH /jobs/:id/trace`) and upload and download
// artifacts. Runner calls authenticate with the runner's token (body `token` or `RUNNER-TOKEN`), job
// calls with the job's token (body or query `token`, `JOB-TOKEN`), which works only while the job runs.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { ApiError } from '../platform/http/api-error.js';
import { mergedParams } from '../platform/http/params.js';
import { isUploadedFile } from '../platform/http/multipart.js';
import { findProjectRow } from '../accounts/api.js';
import { presentedToken, tokenDigest } from './tokens.js';
import { createRunner, parseTagList, registrationScope, type RunnerAttributes } from './runners/register-runner.js';
import { claimedPipeline } from './runners/claim-job.js';
import { claimRunnable } from './pre-assign-checks.js';
import { jobPayload } from './runners/job-payload.js';
import { queueSignal } from './queue-signal.js';
import { ARTIFACT_LIMIT, appendTrace, finishJob, touchJob } from './jobs/runner-updates.js';
import { artifactLimit } from './jobs/artifact-limit.js';
import { parseDuration } from './config/duration.js';
import { presentJobs, type CiRunnerRow } from './entities.js';
import { archiveAvailable } from './jobs/kept-artifacts.js';

const RUNNER = { config: { ability: { credential: 'ci_runner' as const } } };
const JOB = { config: { ability: { credential: 'ci_job' as const } } };
const forbidden = (message = '403 Forbidden', headers: Record<string, string> = {}) => new ApiError(403, { message }, headers);
/** GitLab's file_too_large!: an artifact over the project's (or the instance's) limit. */
const tooLarge = () => new ApiError(413, { message: '413 Request Entity Too Large' });
/** How often `contacted_at` is written (GitLab caches it and persists every 40–55 minutes). */
const CONTACT_EVERY_MS = 60_000;
/** GitLab Runner sends at most 1 MiB of log per request. */
const TRACE_PATCH_LIMIT = 4 * 1024 * 1024;

function bool(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  return /^(true|1|yes|t)$/i.test(String(value));
}

function attributesOf(input: Record<string, unknown>): RunnerAttributes {
  const active = bool(input.active);
  const paused = bool(input.paused);
  if (active !== undefined && paused !== undefined) throw new ApiError(400, { error: 'active, paused are mutually exclusive' });
  const timeout = input.maximum_timeout === undefined || input.maximum_timeout === null || input.maximum_timeout === '' ? undefined : Number(input.maximum_timeout);
  if (timeout !== undefined && !Number.isInteger(timeout)) throw new ApiError(400, { error: 'maximum_timeout is invalid' });
  const note = input.maintenance_note ?? input.maintainer_note;
  return {
    ...(typeof input.description === 'string' ? { description: input.description } : {}),
    ...(typeof note === 'string' ? { maintenanceNote: note } : {}),
    ...(paused !== undefined ? { paused } : active !== undefined ? { paused: !active } : {}),
    ...(bool(input.locked) !== undefined ? { locked: bool(input.locked) } : {}),
    ...(bool(input.run_untagged) !== undefined ? { runUntagged: bool(input.run_untagged) } : {}),
    ...(parseTagList(input.tag_list) !== undefined ? { tagList: parseTagList(input.tag_list) } : {}),
    ...(typeof input.access_level === 'string' ? { accessLevel: input.access_level } : {}),
    ...(timeout !== undefined ? { maximumTimeout: timeout } : {}),
    ...(input.info && typeof input.info === 'object' ? { info: input.info as Record<string, unknown> } : {}),
  };
}

export function runnerProtocolRoutes(app: FastifyInstance, deps: Deps): void {
  const prefix = '/api/v4';

  async function runnerOf(request: FastifyRequest, input: Record<string, unknown>): Promise<CiRunnerRow> {
    const token = presentedToken(input, request.headers, 'runner-token');
    if (!token) throw forbidden();
    const runner = await deps.db.selectFrom('ci_runners').selectAll().where('token_digest', '=', tokenDigest(token)).executeTakeFirst();
    if (!runner) throw forbidden();
    const now = deps.clock.now();
    // The heartbeat: contacted_at, address and the runner's own description of itself.
    if (runner.contacted_at === null || now - Number(runner.contacted_at) > CONTACT_EVERY_MS) {
      const info = input.info && typeof input.info === 'object' ? (input.info as Record<string, unknown>) : undefined;
      const text = (key: string) => (info && typeof info[key] === 'string' ? String(info[key]).slice(0, 255) : undefined);
      await deps.db
        .updateTable('ci_runners')
        .set({ contacted_at: now, ip_address: request.ip, ...(info ? { version: text('version') ?? null, revision: text('revision') ?? null, platform: text('platform') ?? null, architecture: text('architecture') ?? null, executor_type: text('executor') ?? null } : {}) })
        .where('id', '=', runner.id)
        .execute();
      runner.contacted_at = now;
    }
    return runner;
  }

  /** The running job a job token belongs to; GitLab's 403s otherwise (with `Job-Status` when it ended). */
  /** The artifact limit of the job's project (its `max_artifacts_size`, else the instance's). */
  async function projectArtifactLimit(build: { project_id: number | string }): Promise<number> {
    const project = await deps.db.selectFrom('projects').select('settings').where('id', '=', Number(build.project_id)).executeTakeFirst();
    return project ? artifactLimit(project) : ARTIFACT_LIMIT;
  }

  async function runningJob(request: FastifyRequest, input: Record<string, unknown>, jobId: number) {
    const token = presentedToken(input, request.headers, 'job-token');
    if (!token || !Number.isSafeInteger(jobId)) throw forbidden();
    const build = await deps.db.selectFrom('ci_builds').selectAll().where('id', '=', jobId).executeTakeFirst();
    if (!build || build.token_digest === null || build.token_digest !== tokenDigest(token)) throw forbidden();
    if (build.status !== 'running') throw forbidden('403 Forbidden - Job is not running', { 'job-status': build.status });
    return build;
  }

  app.post(`${prefix}/runners`, RUNNER, async (request, reply) => {
    const input = mergedParams(request);
    const token = typeof input.token === 'string' ? input.token : '';
    const scope = token ? await registrationScope(deps, token) : null;
    if (!scope) throw forbidden();
    const { runner, token: authentication } = await createRunner(deps, scope, attributesOf(input), { creatorId: null, registration: 'registration_token' });
    return reply.code(201).send({ id: Number(runner.id), token: authentication, token_expires_at: null });
  });

  app.post(`${prefix}/runners/verify`, RUNNER, async (request, reply) => {
    const input = mergedParams(request);
    const runner = await runnerOf(request, input);
    return reply.code(200).send({ id: Number(runner.id), token: input.token ?? request.headers['runner-token'], token_expires_at: null });
  });

  app.delete(`${prefix}/runners`, RUNNER, async (request, reply) => {
    const runner = await runnerOf(request, mergedParams(request));
    await deps.db.updateTable('ci_builds').set({ runner_id: null }).where('runner_id', '=', runner.id).where('status', '!=', 'running').execute();
    await deps.db.deleteFrom('ci_runners').where('id', '=', runner.id).execute();
    return reply.code(204).send();
  });

  app.post(`${prefix}/jobs/request`, RUNNER, async (request, reply) => {
    const input = mergedParams(request);
    const runner = await runnerOf(request, input);
    const signal = queueSignal(deps);
    const noJob = () => reply.code(204).header('x-gitlab-last-update', signal.value).send();
    if (Number(runner.active) !== 1) return noJob();
    // Long polling: a runner that has seen the current value waits for it to change (or for the poll to
    // end), then looks for a job as Workhorse hands the request on to Rails: answering 204 with the new
    // value instead would make the runner send that value back and wait again with the job pending.
    if (typeof input.last_update === 'string' && input.last_update === signal.value) {
      // A runner that gave up waiting (its connection closed) must not be handed a job nobody would
      // run. The response tells: the request's own 'close' has already fired once its body was read.
      const aborted = new AbortController();
      const gone = () => {
        if (!reply.raw.writableFinished) aborted.abort();
      };
      reply.raw.once('close', gone);
      await signal.wait(deps.config.ciLongPollMs, aborted.signal);
      reply.raw.off('close', gone);
      if (aborted.signal.aborted) return noJob();
    }
    const before = signal.value;
    const claimed = await claimRunnable(deps, runner);
    if (!claimed) {
      reply.header('x-gitlab-last-update', before);
      return reply.code(204).send();
    }
    // The pipeline's row, when the claim left it as it was, and the project are read at once (one round trip).
    const [project, pipeline] = await Promise.all([
      findProjectRow(deps, Number(claimed.build.project_id)),
      claimedPipeline(deps, claimed),
    ]);
    if (!project) throw forbidden();
    return reply.code(201).send(await jobPayload(deps, { ...claimed, pipeline, project, runner }));
  });

  app.put(`${prefix}/jobs/:job_id`, JOB, async (request, reply) => {
    const input = mergedParams(request);
    const build = await runningJob(request, input, Number(input.job_id));
    const state = input.state;
    if (state === 'running' || state === undefined) {
      const interval = await touchJob(deps, Number(build.id));
      return reply.code(200).header('job-status', build.status).header('x-gitlab-trace-update-interval', String(interval)).send('200');
    }
    if (state !== 'success' && state !== 'failed') throw new ApiError(400, { message: '400 Bad request' });
    const exitCode = input.exit_code === undefined || input.exit_code === null ? undefined : Number(input.exit_code);
    await finishJob(deps, build, state, typeof input.failure_reason === 'string' ? input.failure_reason : undefined, Number.isInteger(exitCode) ? exitCode : undefined);
    queueSignal(deps).tick();
    return reply.code(200).header('job-status', state).send('200');
  });

  // The log arrives as raw bytes (text/plain): read as a Buffer, never decoded, so byte offsets hold.
  void app.register(async (child) => {
    child.removeContentTypeParser('text/plain');
    child.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, payload, done) => done(null, payload));
    child.patch(`${prefix}/jobs/:job_id/trace`, { ...JOB, bodyLimit: TRACE_PATCH_LIMIT }, async (request, reply) => {
      const input = mergedParams(request);
      const build = await runningJob(request, input, Number(input.job_id));
      const range = request.headers['content-range'];
      if (typeof range !== 'string') throw new ApiError(400, { message: '400 Missing header Content-Range' });
      const match = /^(\d+)-(\d+)?$/.exec(range.trim());
      if (!match) throw new ApiError(400, { message: '400 Missing header Content-Range' });
      const data = Buffer.isBuffer(request.body) ? request.body : await readBody(request, TRACE_PATCH_LIMIT);
      const result = await appendTrace(deps, Number(build.id), Number(match[1]), data);
      if (!result.ok && result.reason === 'range') return reply.code(416).header('range', `0-${result.size}`).send({ message: '416 Range Not Satisfiable' });
      if (!result.ok && result.reason === 'too_large') {
        await finishJob(deps, build, 'failed', 'trace_size_exceeded');
        throw forbidden('403 Forbidden - The job log size limit was reached', { 'job-status': 'failed' });
      }
      if (!result.ok) throw forbidden('403 Forbidden - Job is not running');
      return reply.code(202).header('job-status', 'running').header('range', `0-${result.size}`).header('x-gitlab-trace-update-interval', String(result.updateInterval)).send('202');
    });
  });

  app.post(`${prefix}/jobs/:job_id/artifacts/authorize`, JOB, async (request, reply) => {
    const input = mergedParams(request);
    const build = await runningJob(request, input, Number(input.job_id));
    const limit = await projectArtifactLimit(build);
    const size = Number(input.filesize ?? 0);
    if (size > limit) throw tooLarge();
    return reply.code(200).send({ TempPath: null, MaximumSize: limit });
  });

  app.post(`${prefix}/jobs/:job_id/artifacts`, { ...JOB, bodyLimit: ARTIFACT_LIMIT + 64 * 1024 }, async (request, reply) => {
    const input = mergedParams(request);
    const build = await runningJob(request, input, Number(input.job_id));
    const file = input.file;
    if (!isUploadedFile(file)) throw new ApiError(400, { error: 'file is missing' });
    if (file.data.length > (await projectArtifactLimit(build))) throw tooLarge();
    const fileType = typeof input.artifact_type === 'string' ? input.artifact_type : 'archive';
    const fileFormat = typeof input.artifact_format === 'string' ? input.artifact_format : 'zip';
    const expireIn = typeof input.expire_in === 'string' ? input.expire_in : undefined;
    const seconds = expireIn === undefined ? 30 * 86400 : expireIn === 'never' ? null : parseDuration(expireIn);
    const now = deps.clock.now();
    const exists = await deps.db.selectFrom('ci_job_artifacts').select('id').where('build_id', '=', build.id).where('file_type', '=', fileType).executeTakeFirst();
    if (exists) throw new ApiError(400, { message: 'another artifact of the same type already exists' });
    await deps.db
      .insertInto('ci_job_artifacts')
      .values({ build_id: build.id, project_id: build.project_id, file_type: fileType, file_format: fileFormat, filename: file.filename || 'artifacts.zip', size: file.data.length, data: file.data, expire_at: seconds === null ? null : now + seconds * 1000, created_at: now })
      .execute();
    if (fileType === 'archive') await deps.db.updateTable('ci_builds').set({ artifacts_expire_at: seconds === null ? null : now + seconds * 1000 }).where('id', '=', build.id).execute();
    return reply.code(201).send('201');
  });

  // The running job itself, for scripts that call the API with CI_JOB_TOKEN.
  app.get(`${prefix}/job`, JOB, async (request) => {
    const input = mergedParams(request);
    const token = presentedToken(input, request.headers, 'job-token', 'job_token');
    const build = token ? await deps.db.selectFrom('ci_builds').selectAll().where('token_digest', '=', tokenDigest(token)).executeTakeFirst() : undefined;
    if (!build || build.status !== 'running') throw new ApiError(401, { message: '401 Unauthorized' });
    const project = await findProjectRow(deps, Number(build.project_id));
    if (!project) throw new ApiError(401, { message: '401 Unauthorized' });
    return (await presentJobs(deps, project, [build]))[0];
  });

  // Dependencies' artifacts: with the token of a running job of the same pipeline (GitLab 16's rule).
  app.get(`${prefix}/jobs/:job_id/artifacts`, JOB, async (request, reply) => {
    const input = mergedParams(request);
    const token = presentedToken(input, request.headers, 'job-token');
    const jobId = Number(input.job_id);
    if (!token || !Number.isSafeInteger(jobId)) throw forbidden();
    const asking = await deps.db.selectFrom('ci_builds').select(['commit_id', 'status']).where('token_digest', '=', tokenDigest(token)).executeTakeFirst();
    const build = await deps.db.selectFrom('ci_builds').select(['id', 'commit_id']).where('id', '=', jobId).executeTakeFirst();
    if (!asking || asking.status !== 'running' || !build || Number(build.commit_id) !== Number(asking.commit_id)) throw forbidden();
    return sendArchive(deps, reply, Number(build.id));
  });
}

/** A job's archive as a download, or GitLab's 404. */
export async function sendArchive(deps: Deps, reply: FastifyReply, buildId: number): Promise<FastifyReply> {
  const artifact = await deps.db
    .selectFrom('ci_job_artifacts')
    .select(['data', 'filename', 'expire_at'])
    .where('build_id', '=', buildId)
    .where('file_type', '=', 'archive')
    .executeTakeFirst();
  if (!artifact || !(await archiveAvailable(deps, buildId, artifact.expire_at))) throw new ApiError(404, { message: '404 Not Found' });
  return reply
    .code(200)
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', `attachment; filename="${artifact.filename.replace(/["\\\r\n]/g, '_')}"`)
    .send(Buffer.from(artifact.data));
}

async function readBody(request: FastifyRequest, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ApiError(413, { message: '413 Request Entity Too Large' });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
