// CI/CD (issue 39): pipelines from `.gitlab-ci.yml`, created by pushes and the API, their jobs handed
// to runners over GitLab's runner protocol, and the deployments jobs make.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { Feature } from '../platform/feature.js';
import { enqueue } from '../platform/jobs/queue.js';
import { ciRoutes } from './routes.js';
import { runnerRoutes } from './runner-routes.js';
import { runnerProtocolRoutes } from './runner-protocol-routes.js';
import { variablesRoutes } from './cicd-variables/variables-routes.js';
import { triggersRoutes } from './triggers/triggers-routes.js';
import { resourceGroupsRoutes } from './resource-groups/resource-groups-routes.js';
import { changeProcessMode } from './pipelines/resource-group-mode.js';
import { environmentHooks } from '../environments/api.js';
import { repositoryHooks } from '../repositories/api.js';
import { tokenDigest } from './tokens.js';
import { deployableEntity, jobFacts } from './entities.js';
import { PUSH_PIPELINE_JOB, pushPipelineJob } from './pipelines/push-pipeline.js';
import { MERGE_REQUEST_PIPELINE_JOB, mergeRequestPipelineJob } from './pipelines/merge-request-pipeline.js';
import { mergeRequestPipelinesRoutes } from './pipelines/merge-request-pipelines-routes.js';
import { jobTokenScopeRoutes } from './job-token-scope/scope-routes.js';
import { jobTokenReaches } from './job-token-scope/scope-store.js';
import { resolveJobToken } from './job-token-scope/job-token-auth.js';
import { DROP_STUCK_JOBS_JOB, dropStuckJobsJob, scheduleStuckJobsCheck } from './jobs/drop-stuck-jobs.js';
import { EXPIRE_ARTIFACTS_JOB, expireArtifactsJob } from './jobs/expire-artifacts.js';
import { scheduleOnce } from '../platform/jobs/daily.js';
import { pipelineSchedulesRoutes } from './schedules/schedules-routes.js';
import { ciPages } from './pages/index.js';
import { mergeRequestExposedArtifacts } from './pages/exposed-artifacts.js';
import { mergeRequestHooks } from '../merge-requests/api.js';
import { artifactRoutes } from './jobs/artifact-routes.js';
import { badgeRoutes } from './badges/badge-routes.js';
import { RUN_SCHEDULE_JOB, runScheduleJob, SCHEDULER_JOB, schedulerJob, startScheduler } from './schedules/run-schedules.js';

/** `kiln serve`'s built-in runner (KILN_BUILTIN_RUNNER), started by the command once the server listens. */
export { startBuiltinRunner } from './runners/builtin-runner.js';

export const ciFeature: Feature = {
  name: 'ci',
  setup(deps: Deps) {
    // CI_JOB_TOKEN for git over HTTP: a running job reads as its user.
    repositoryHooks(deps).jobTokenUser = async (token) => {
      const build = await deps.db.selectFrom('ci_builds').select(['user_id', 'status']).where('token_digest', '=', tokenDigest(token)).executeTakeFirst();
      return build && build.status === 'running' && build.user_id !== null ? Number(build.user_id) : null;
    };
    repositoryHooks(deps).jobTokenProject = async (token) => {
      const build = await deps.db.selectFrom('ci_builds').select(['project_id', 'status']).where('token_digest', '=', tokenDigest(token)).executeTakeFirst();
      return build && build.status === 'running' ? Number(build.project_id) : null;
    };
    // The job token scope: another project's code only where it allows this job's project.
    const mrHooks = mergeRequestHooks(deps);
    mrHooks.widgetSections = [...(mrHooks.widgetSections ?? []), (context, input) => mergeRequestExposedArtifacts(context, input)];
    repositoryHooks(deps).jobTokenReaches = (jobProjectId, targetProjectId) => jobTokenReaches(deps.db, jobProjectId, targetProjectId);
    // CI_JOB_TOKEN on the API routes that take it, within the same scope.
    deps.auth.jobToken = (token) => resolveJobToken(deps, token);
    deps.auth.jobTokenReaches = (jobProjectId, targetProjectId) => jobTokenReaches(deps.db, jobProjectId, targetProjectId);
    // A deployment's `deployable`: the job that made it, in the specification's shape.
    environmentHooks(deps).deployables = async (project, buildIds) => {
      const builds = await deps.db.selectFrom('ci_builds').selectAll().where('project_id', '=', project.id).where('id', 'in', buildIds).execute();
      const facts = await jobFacts(deps, project, builds);
      return new Map(builds.map((build) => [Number(build.id), deployableEntity(deps.config.baseUrl, project, build, facts.get(Number(build.id))!, deps.clock.now())]));
    };
    // A push of a branch or tag (not a deletion) runs its pipeline, in a job: reading the file takes git;
    // none when the push asked for none (skip_ci).
    deps.domainEvents.on('push', async (tx, event) => {
      if (event.after === null || event.skipCi) return;
      await enqueue(tx, deps.clock, PUSH_PIPELINE_JOB, { projectId: event.projectId, actorId: event.actorId, ref: event.ref, before: event.before, after: event.after });
    });
    // A merge request opened, or its source branch pushed (an update with `oldrev`), runs its merge request pipeline.
    deps.domainEvents.on('merge_request.opened', (tx, event) => enqueue(tx, deps.clock, MERGE_REQUEST_PIPELINE_JOB, { mergeRequestId: event.mergeRequestId, actorId: event.actorId }));
    deps.domainEvents.on('merge_request.updated', async (tx, event) => {
      if (event.oldrev === undefined) return;
      await enqueue(tx, deps.clock, MERGE_REQUEST_PIPELINE_JOB, { mergeRequestId: event.mergeRequestId, actorId: event.actorId });
    });
  },
  routes(app: FastifyInstance, deps: Deps) {
    ciRoutes(app, deps);
    runnerRoutes(app, deps);
    runnerProtocolRoutes(app, deps);
    variablesRoutes(app, deps);
    triggersRoutes(app, deps);
    pipelineSchedulesRoutes(app, deps);
    artifactRoutes(app, deps);
    ciPages(app, deps);
    badgeRoutes(app, deps);
    mergeRequestPipelinesRoutes(app, deps);
    jobTokenScopeRoutes(app, deps);
    resourceGroupsRoutes(app, deps, (group, mode) => changeProcessMode(deps, group, mode));
  },
  jobs: { [PUSH_PIPELINE_JOB]: pushPipelineJob, [DROP_STUCK_JOBS_JOB]: dropStuckJobsJob, [EXPIRE_ARTIFACTS_JOB]: expireArtifactsJob,
    [SCHEDULER_JOB]: schedulerJob, [RUN_SCHEDULE_JOB]: runScheduleJob, [MERGE_REQUEST_PIPELINE_JOB]: mergeRequestPipelineJob },
  async onStart(deps) {
    await scheduleStuckJobsCheck(deps);
    await startScheduler(deps);
    await scheduleOnce(deps, EXPIRE_ARTIFACTS_JOB, deps.clock.now(), { orRunning: true });
  },
};
