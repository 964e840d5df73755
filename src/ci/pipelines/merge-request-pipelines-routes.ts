// A merge request's pipelines (GitLab's API::MergeRequests pipelines endpoints): its own
// `merge_request_event` pipelines and its source branch's for its heads, and a new one on request.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { StatusError } from '../../platform/errors.js';
import { pipelineBasicEntity } from '../../commit-statuses/api.js';
import { findMergeRequest } from '../../merge-requests/api.js';
import { createdPipeline, presentCreatedPipeline } from './present-created.js';
import { PipelineCreationError } from './create-pipeline.js';
import { createMergeRequestPipeline, MergeRequestPipelineRefused, mergeRequestPipelinesQuery } from './merge-request-pipeline.js';

const TAGS = ['ci'];

export function mergeRequestPipelinesRoutes(app: FastifyInstance, deps: Deps): void {
  const params = { id: p.string.required(), merge_request_iid: p.integer.required() };

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/pipelines', summary: "A merge request's pipelines", tags: TAGS, paginated: true,
    ability: { project: 'read_pipeline' }, auth: 'optional', params,
    handler: async ({ params: input, project, paginate }) => {
      const access = await project('read_merge_request');
      const mr = await findMergeRequest(deps.db, Number(access.project.id), input.merge_request_iid);
      const rows = await paginate(mergeRequestPipelinesQuery(deps, { id: Number(mr.id), source_project_id: mr.source_project_id, source_branch: mr.source_branch }));
      return rows.map((row) => pipelineBasicEntity(deps.config.baseUrl, row, access.project.full_path));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/merge_requests/:merge_request_iid/pipelines', summary: 'Run a pipeline for a merge request', tags: TAGS, status: 200,
    ability: { project: 'read_merge_request' }, params,
    handler: async ({ params: input, project, actor }) => {
      const access = await project();
      const mr = await findMergeRequest(deps.db, Number(access.project.id), input.merge_request_iid);
      // GitLab's not_allowed! (MergeRequestPipelineRefused): the caller may run pipelines neither in the
      // target project nor in the source project, or the merge request cannot have one.
      const pipeline = await createdPipeline(async () => {
        try {
          const created = await createMergeRequestPipeline(deps, { mergeRequestId: Number(mr.id), userId: actor.user.id, background: false });
          if (!created) throw new PipelineCreationError(['No stages / jobs for this pipeline.']);
          return created;
        } catch (error) {
          if (error instanceof MergeRequestPipelineRefused) throw new StatusError(405, '405 Method Not Allowed');
          throw error;
        }
      });
      return presentCreatedPipeline(deps, pipeline, access.project);
    },
  });
}
