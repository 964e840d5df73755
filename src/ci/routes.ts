// The CI API for users (GitLab's API::Lint, API::Ci::Pipelines, API::Ci::Jobs): lint a configuration,
// create, list, read, retry, cancel and delete pipelines, and read, cancel, retry and play jobs and
// read their logs. Jobs, their logs and artifacts want read_build (public_jobs decides for those
// without a role), pipelines read_pipeline.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError, ParamError, StatusError } from '../platform/errors.js';
import { ApiError } from '../platform/http/api-error.js';
import { pipelineBasicEntity, pipelineEntity } from '../commit-statuses/api.js';
import { usersById } from '../issues/api.js';
import { deletePipeline } from './pipelines/delete-pipeline.js';
import { parseCiConfigWithIncludes } from './config/includes.js';
import { includeContext } from './pipelines/include-reader.js';
import { findCommit, readableRepository } from '../repositories/api.js';
import { createdPipeline, presentCreatedPipeline } from './pipelines/present-created.js';
import { runPipelineForRef } from './pipelines/run-pipeline.js';
import { findBuild, findPipeline, jobsQuery, pipelinesQuery, JOB_SCOPES } from './finder.js';
import { presentJobs } from './entities.js';
import { cancelJob, cancelPipeline, playJob, retryJob, retryPipeline } from './jobs/job-actions.js';
import { traceStream } from './jobs/trace.js';
import { queueSignal } from './queue-signal.js';
import { sendArchive } from './runner-protocol-routes.js';
import { assertMayUpdateRef } from './jobs/protected-ref-access.js';
import { eraseJob } from './jobs/erase-job.js';
import { canOnProject } from '../platform/auth/policies/policy.js';

const TAGS = ['ci'];

export function ciRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;

  apiRoute(app, deps, {
    method: 'POST', url: '/ci/lint', summary: 'Check a .gitlab-ci.yml (GitLab 14.x)', tags: TAGS,
    ability: { instance: 'log_in' },
    params: { content: p.string.required(), include_merged_yaml: p.boolean.optional(), include_jobs: p.boolean.optional() },
    status: 200,
    handler: async ({ params, actor }) => {
      // No project: `include:local` has none to read (GitLab's "does not have project!"), other projects' files as the caller.
      const parsed = await parseCiConfigWithIncludes(params.content, includeContext(deps, null, null, actor.user.id), base);
      const valid = parsed.errors.length === 0;
      return {
        status: valid ? 'valid' : 'invalid',
        errors: parsed.errors,
        warnings: parsed.warnings,
        valid,
        ...(params.include_merged_yaml ? { merged_yaml: parsed.mergedYaml } : {}),
      };
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/ci/lint', summary: 'Check a .gitlab-ci.yml in the context of a project', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), content: p.string.required(), dry_run: p.boolean.optional(), include_jobs: p.boolean.optional(), ref: p.string.optional() },
    status: 200,
    handler: async ({ params, project, principal }) => {
      const access = await project();
      // Includes are read at the ref's commit (the default branch without one), as the caller.
      const repoPath = await readableRepository(deps, access.project);
      const commit = repoPath ? await findCommit(repoPath, params.ref ?? 'HEAD') : null;
      const parsed = await parseCiConfigWithIncludes(params.content, includeContext(deps, access.project, commit?.id ?? null, principal?.user.id ?? null), base);
      return {
        valid: parsed.errors.length === 0,
        errors: parsed.errors,
        warnings: parsed.warnings,
        merged_yaml: parsed.mergedYaml,
        includes: parsed.includes,
        ...(params.include_jobs
          ? {
              jobs: (parsed.config?.jobs ?? []).map((job) => ({
                name: job.name, stage: job.stage, before_script: job.beforeScript ?? [], script: job.script, after_script: job.afterScript ?? [],
                tag_list: job.tags, only: job.only ? { refs: job.only.refs } : null, except: job.except ? { refs: job.except.refs } : null,
                environment: job.environment?.name ?? null, when: job.when, allow_failure: job.allowFailure, needs: job.needs?.map((need) => ({ name: need.job })) ?? null,
              })),
            }
          : {}),
      };
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/pipeline', summary: 'Run a pipeline for a branch or tag', tags: TAGS, status: 201,
    ability: { project: 'create_pipeline' },
    params: { id: p.string.required(), ref: p.string.required(), variables: p.json.optional() },
    handler: async ({ params, project, actor }) => {
      const access = await project();
      const variables = params.variables === undefined ? [] : params.variables;
      if (!Array.isArray(variables) || !variables.every((item) => item && typeof item === 'object' && typeof (item as { key?: unknown }).key === 'string')) throw new ParamError('variables is invalid');
      const pipeline = await createdPipeline(() => runPipelineForRef(deps, {
        project: access.project, ref: params.ref, source: 'api', userId: actor.user.id,
        variables: (variables as Array<{ key: string; value?: unknown; variable_type?: string }>).map((item) => ({ key: item.key, value: String(item.value ?? ''), variable_type: item.variable_type })),
      }));
      return presentCreatedPipeline(deps, pipeline, access.project);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/pipelines', summary: 'List pipelines', tags: TAGS, paginated: true,
    ability: { project: 'read_pipeline' }, auth: 'optional',
    params: {
      id: p.string.required(),
      scope: p.string.optional({ values: ['running', 'pending', 'finished', 'branches', 'tags'] }),
      status: p.string.optional({ values: ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled'] }),
      ref: p.string.optional(), sha: p.string.optional(), yaml_errors: p.boolean.optional(), username: p.string.optional(),
      updated_after: p.string.optional(), updated_before: p.string.optional(), source: p.string.optional(),
      order_by: p.string.optional({ values: ['id', 'status', 'ref', 'updated_at', 'user_id'] }), sort: p.string.optional({ values: ['asc', 'desc'] }),
    },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const rows = await paginate(pipelinesQuery(deps, Number(access.project.id), params));
      return rows.map((row) => pipelineBasicEntity(base, row, access.project.full_path));
    },
  });

  const onePipeline = { id: p.string.required(), pipeline_id: p.integer.required() };
  const pipelineOf = async (projectId: number, pipelineId: number) => {
    const pipeline = await findPipeline(deps.db, projectId, pipelineId);
    if (!pipeline) throw new NotFoundError('Pipeline');
    return pipeline;
  };
  const presentPipeline = async (pipeline: Awaited<ReturnType<typeof pipelineOf>>, fullPath: string) => {
    const users = await usersById(deps.db, [pipeline.user_id]);
    const entity = pipelineEntity(base, pipeline, fullPath, { user: pipeline.user_id === null ? undefined : users.get(Number(pipeline.user_id)), coverage: null });
    return { ...entity, yaml_errors: pipeline.yaml_errors };
  };

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/pipelines/latest', summary: 'The latest pipeline of a ref', tags: TAGS,
    ability: { project: 'read_pipeline' }, auth: 'optional',
    params: { id: p.string.required(), ref: p.string.optional() },
    handler: async ({ params, project }) => {
      const access = await project();
      const ref = params.ref ?? access.project.default_branch;
      const row = await deps.db.selectFrom('ci_pipelines').selectAll().where('project_id', '=', access.project.id).where('ref', '=', ref).where('source', '!=', 'external').orderBy('id', 'desc').limit(1).executeTakeFirst();
      if (!row) throw new NotFoundError('Pipeline');
      return presentPipeline(row, access.project.full_path);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/pipelines/:pipeline_id', summary: 'A pipeline', tags: TAGS,
    ability: { project: 'read_pipeline' }, auth: 'optional', params: onePipeline,
    handler: async ({ params, project }) => {
      const access = await project();
      return presentPipeline(await pipelineOf(Number(access.project.id), params.pipeline_id), access.project.full_path);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/pipelines/:pipeline_id/jobs', summary: "A pipeline's jobs", tags: TAGS, paginated: true,
    ability: { project: 'read_build' }, auth: 'optional',
    params: { ...onePipeline, scope: p.strings.optional(), include_retried: p.boolean.optional() },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const pipeline = await pipelineOf(Number(access.project.id), params.pipeline_id);
      const rows = await paginate(jobsQuery(deps, Number(access.project.id), { pipelineId: Number(pipeline.id), scope: params.scope, includeRetried: params.include_retried }));
      return presentJobs(deps, access.project, rows);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/pipelines/:pipeline_id/variables', summary: 'The variables a pipeline was created with', tags: TAGS,
    ability: { project: 'update_build' }, params: onePipeline,
    handler: async ({ params, project }) => {
      const access = await project();
      const pipeline = await pipelineOf(Number(access.project.id), params.pipeline_id);
      const variables = pipeline.variables ? (JSON.parse(pipeline.variables) as Array<{ key: string; value: string; variable_type: string }>) : [];
      return variables.map((variable) => ({ variable_type: variable.variable_type, key: variable.key, value: variable.value }));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/pipelines/:pipeline_id/retry', summary: "Retry a pipeline's failed jobs", tags: TAGS, status: 201,
    ability: { project: 'update_build' }, params: onePipeline,
    handler: async ({ params, project, actor }) => {
      const access = await project();
      const pipeline = await pipelineOf(Number(access.project.id), params.pipeline_id);
      await assertMayUpdateRef(deps, access.project, actor.user, pipeline);
      await retryPipeline(deps, Number(pipeline.id), actor.user.id);
      queueSignal(deps).tick();
      return presentPipeline(await pipelineOf(Number(access.project.id), params.pipeline_id), access.project.full_path);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/pipelines/:pipeline_id/cancel', summary: "Cancel a pipeline's jobs", tags: TAGS, status: 200,
    ability: { project: 'update_build' }, params: onePipeline,
    handler: async ({ params, project, actor }) => {
      const access = await project();
      const pipeline = await pipelineOf(Number(access.project.id), params.pipeline_id);
      await assertMayUpdateRef(deps, access.project, actor.user, pipeline);
      await cancelPipeline(deps, Number(pipeline.id));
      return presentPipeline(await pipelineOf(Number(access.project.id), params.pipeline_id), access.project.full_path);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/pipelines/:pipeline_id', summary: 'Delete a pipeline', tags: TAGS,
    ability: { project: 'destroy_pipeline' }, params: onePipeline,
    handler: async ({ params, project }) => {
      const access = await project();
      const pipeline = await pipelineOf(Number(access.project.id), params.pipeline_id);
      await deletePipeline(deps, Number(pipeline.id));
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/jobs', summary: "A project's jobs", tags: TAGS, paginated: true,
    ability: { project: 'read_build' }, auth: 'optional',
    params: { id: p.string.required(), scope: p.strings.optional() },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      if (params.scope && !params.scope.every((scope) => (JOB_SCOPES as readonly string[]).includes(scope))) throw new ApiError(400, { message: '400 Bad request - Scope contains invalid value(s)' });
      const rows = await paginate(jobsQuery(deps, Number(access.project.id), { scope: params.scope }));
      return presentJobs(deps, access.project, rows);
    },
  });

  const oneJob = { id: p.string.required(), job_id: p.integer.required() };
  const jobOf = async (projectId: number, jobId: number) => {
    const build = await findBuild(deps.db, projectId, jobId);
    if (!build) throw new NotFoundError('Job');
    return build;
  };

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/jobs/:job_id', summary: 'A job', tags: TAGS,
    ability: { project: 'read_build' }, auth: 'optional', params: oneJob,
    handler: async ({ params, project }) => {
      const access = await project();
      return (await presentJobs(deps, access.project, [await jobOf(Number(access.project.id), params.job_id)]))[0];
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/jobs/:job_id/trace', summary: "A job's log", tags: TAGS,
    ability: { project: 'read_build' }, auth: 'optional', params: oneJob,
    handler: async ({ params, project, reply }) => {
      const access = await project();
      const build = await jobOf(Number(access.project.id), params.job_id);
      reply.header('content-type', 'text/plain; charset=utf-8').header('content-disposition', `infile; filename="${build.id}.log"`);
      // Chunk by chunk: a long log is never whole in memory.
      return reply.send(traceStream(deps.db, Number(build.id)));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/jobs/:job_id/artifacts', summary: "A job's artifacts archive", tags: TAGS, jobToken: true,
    ability: { project: 'read_build' }, auth: 'optional', params: oneJob,
    handler: async ({ params, project, reply }) => {
      const access = await project();
      const build = await jobOf(Number(access.project.id), params.job_id);
      return sendArchive(deps, reply, Number(build.id));
    },
  });

  for (const [action, status, run] of [
    ['cancel', 201, (build: Awaited<ReturnType<typeof jobOf>>) => cancelJob(deps, build)],
    ['retry', 201, (build: Awaited<ReturnType<typeof jobOf>>, userId: number) => retryJob(deps, build, userId)],
    ['play', 200, (build: Awaited<ReturnType<typeof jobOf>>, userId: number) => playJob(deps, build, userId)],
  ] as const) {
    apiRoute(app, deps, {
      method: 'POST', url: `/projects/:id/jobs/:job_id/${action}`, summary: `${action[0].toUpperCase()}${action.slice(1)} a job`, tags: TAGS, status,
      ability: { project: 'update_build' }, params: oneJob,
      handler: async ({ params, project, actor }) => {
        const access = await project();
        const build = await jobOf(Number(access.project.id), params.job_id);
        if (build.type !== 'Ci::Build') throw new StatusError(403, '403 Forbidden');
        // A Developer who may not push or merge to a protected branch (or create a protected tag) may not touch its jobs.
        await assertMayUpdateRef(deps, access.project, actor.user, build);
        const changed = await run(build, actor.user.id);
        queueSignal(deps).tick();
        return (await presentJobs(deps, access.project, [changed]))[0];
      },
    });
  }

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/jobs/:job_id/erase', summary: "Erase a job's log and artifacts", tags: TAGS, status: 201,
    ability: { project: 'update_build' }, params: oneJob,
    handler: async ({ params, project, actor }) => {
      const access = await project();
      const build = await jobOf(Number(access.project.id), params.job_id);
      // GitLab's erase_build: a Maintainer, or the Developer whose job it is, on a ref they may update.
      if (build.type !== 'Ci::Build' || (!canOnProject(access, 'admin_build') && Number(build.user_id) !== actor.user.id)) throw new StatusError(403, '403 Forbidden');
      await assertMayUpdateRef(deps, access.project, actor.user, build);
      return (await presentJobs(deps, access.project, [await eraseJob(deps, build)]))[0];
    },
  });
}
