// GitLab's triggers API (lib/api/ci/triggers.rb): Maintainers manage a project's trigger tokens, and
// anyone holding one runs a pipeline with POST /projects/:id/trigger/pipeline (source `trigger`, as the
// token's owner, with the request's variables as pipeline variables) while that owner may still create
// pipelines in the project.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { NotFoundError, StatusError } from '../../platform/errors.js';
import { findProjectRow } from '../../accounts/api.js';
import { runPipelineForRef } from '../pipelines/run-pipeline.js';
import { PIPELINES_DISABLED, pipelinesDisabled } from '../pipelines/create-pipeline.js';
import { INSUFFICIENT_PERMISSIONS, mayRunPipelines } from '../pipelines/may-run-pipelines.js';
import { ApiError } from '../../platform/http/api-error.js';
import { createdPipeline, presentCreatedPipeline } from '../pipelines/present-created.js';
import { createTrigger, findTrigger, presentTriggers, projectTriggers, updateTrigger, useTrigger } from './trigger-store.js';

const TAGS = ['ci_triggers'];
const VARIABLES_MESSAGE = 'variables needs to be a map of key-valued strings';

/** `variables[KEY]=value` (form, nested) or `{"variables": {"KEY": "value"}}`: strings only. */
function triggerVariables(value: unknown): Array<{ key: string; value: string }> {
  if (value === undefined) return [];
  if (!value || typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((item) => typeof item === 'string')) throw new StatusError(400, VARIABLES_MESSAGE);
  return Object.entries(value as Record<string, string>).map(([key, item]) => ({ key, value: item }));
}

export function triggersRoutes(app: FastifyInstance, deps: Deps): void {
  const ability = { project: 'admin_build' } as const;
  const one = { id: p.string.required(), trigger_id: p.integer.required() };

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/triggers', summary: "List a project's trigger tokens", tags: TAGS, paginated: true, ability,
    params: { id: p.string.required() },
    handler: async ({ project, paginate }) => presentTriggers(deps, await paginate(projectTriggers(deps, Number((await project()).project.id)).orderBy('id'))),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/triggers/:trigger_id', summary: 'A trigger token', tags: TAGS, ability, params: one,
    handler: async ({ params, project }) => (await presentTriggers(deps, [await findTrigger(deps, Number((await project()).project.id), params.trigger_id)]))[0],
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/triggers', summary: 'Create a trigger token', tags: TAGS, status: 201, ability,
    params: { id: p.string.required(), description: p.string.required() },
    handler: async ({ params, project, actor }) => {
      const made = await createTrigger(deps, { projectId: Number((await project()).project.id), ownerId: actor.user.id, description: params.description });
      return (await presentTriggers(deps, [made.row], made.token))[0];
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/triggers/:trigger_id', summary: 'Update a trigger token', tags: TAGS, ability,
    params: { ...one, description: p.string.optional() },
    handler: async ({ params, project }) => {
      const row = await findTrigger(deps, Number((await project()).project.id), params.trigger_id);
      return (await presentTriggers(deps, [await updateTrigger(deps, row, params.description)]))[0];
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/triggers/:trigger_id', summary: 'Delete a trigger token', tags: TAGS, ability, params: one,
    handler: async ({ params, project }) => {
      const row = await findTrigger(deps, Number((await project()).project.id), params.trigger_id);
      await deps.db.deleteFrom('ci_triggers').where('id', '=', row.id).execute();
      return undefined;
    },
  });

  // The token is the credential: no user is signed in, so the project is found by the token alone and
  // a wrong token or project answers the same 404 (nothing tells a private project exists).
  for (const url of ['/projects/:id/trigger/pipeline', '/projects/:id/ref/:ref/trigger/pipeline']) {
    apiRoute(app, deps, {
      method: 'POST', url, summary: 'Run a pipeline with a trigger token', tags: TAGS, status: 201, auth: 'optional',
      ability: { instance: 'read_instance' },
      params: { id: p.string.required(), token: p.string.required(), ref: p.string.required(), variables: p.json.optional() },
      handler: async ({ params, request }) => {
        // A webhook pointed back at the trigger would start a pipeline per pipeline event (GitLab refuses it too).
        if (request.headers['x-gitlab-event'] === 'Pipeline Hook') throw new StatusError(403, '403 Forbidden');
        const variables = triggerVariables(params.variables);
        const project = await findProjectRow(deps, params.id);
        const trigger = project ? await useTrigger(deps, Number(project.id), params.token) : undefined;
        if (!project || !trigger) throw new NotFoundError();
        // The owner's rights now, not when the token was made (GitLab checks them before the ref, as here).
        const ownerId = trigger.owner_id === null ? null : Number(trigger.owner_id);
        if (pipelinesDisabled(project)) throw new ApiError(400, { message: { base: [PIPELINES_DISABLED] } });
        if (!(await mayRunPipelines(deps, ownerId, project))) throw new ApiError(400, { message: { base: [INSUFFICIENT_PERMISSIONS] } });
        const pipeline = await createdPipeline(() => runPipelineForRef(deps, { project, ref: params.ref, source: 'trigger', userId: ownerId, variables }));
        return presentCreatedPipeline(deps, pipeline, project);
      },
    });
  }
}
