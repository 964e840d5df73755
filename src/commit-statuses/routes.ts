// The commit statuses API (GitLab's API::CommitStatuses): external CI posts the state of its jobs on
// a commit, and anyone who reads the project's pipelines lists them.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ParamError } from '../platform/errors.js';
import { usersById } from '../issues/api.js';
import { createCommitStatus } from './create-commit-status.js';
import { commitStatusEntity } from './entities.js';
import { commitStatusesQuery } from './statuses-finder.js';
import { POSTED_STATES, type PostedState } from './transitions.js';

const TAGS = ['commit statuses'];

export function commitStatusRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/statuses/:sha', summary: 'Post the status of a job on a commit (external CI)', tags: TAGS, status: 201,
    ability: { project: 'create_commit_status' },
    params: {
      id: p.string.required(),
      sha: p.string.required(),
      state: p.string.required({ values: POSTED_STATES }),
      // 255: GitLab's ci_pipelines.ref column; longer would also exceed one git argument's size limit.
      ref: p.string.optional({ max: 255, description: 'The branch or tag; by default the first branch holding the commit' }),
      name: p.string.optional({ description: 'The job; `context` is its other name (default: default)' }),
      context: p.string.optional(),
      target_url: p.string.optional(),
      description: p.string.optional(),
      coverage: p.string.optional({ description: 'A float' }),
      pipeline_id: p.integer.optional(),
    },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      // Grape's Float: a number or a numeric string.
      const coverage = params.coverage === undefined ? undefined : Number(params.coverage);
      if (coverage !== undefined && (params.coverage!.trim() === '' || Number.isNaN(coverage))) throw new ParamError('coverage is invalid');
      const { build, pipeline } = await createCommitStatus(deps, access, actor.user.id, {
        sha: params.sha,
        state: params.state as PostedState,
        ref: params.ref || undefined,
        name: params.name || params.context || 'default',
        targetUrl: params.target_url,
        description: params.description,
        coverage,
        pipelineId: params.pipeline_id,
      });
      const users = await usersById(deps.db, [build.user_id]);
      return commitStatusEntity(base, build, pipeline.sha, build.user_id === null ? undefined : users.get(Number(build.user_id)));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/commits/:sha/statuses', summary: 'The statuses posted on a commit', tags: TAGS, paginated: true,
    ability: { project: 'read_commit_status' }, auth: 'optional',
    params: {
      id: p.string.required(),
      sha: p.string.required(),
      ref: p.string.optional(),
      stage: p.string.optional(),
      name: p.string.optional(),
      pipeline_id: p.integer.optional(),
      all: p.boolean.optional({ description: 'Retried statuses too' }),
    },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const rows = await paginate(commitStatusesQuery(deps, Number(access.project.id), params.sha, { ref: params.ref, stage: params.stage, name: params.name, pipelineId: params.pipeline_id, all: params.all }));
      const users = await usersById(deps.db, rows.map((row) => row.user_id));
      return rows.map(({ pipeline_sha: sha, ...build }) => commitStatusEntity(base, build, sha, build.user_id === null ? undefined : users.get(Number(build.user_id))));
    },
  });
}
