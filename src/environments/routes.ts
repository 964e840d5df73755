// REST surface of environments (specification, Environments; GitLab's REST API documentation): parse, look up the
// project, call one action or finder, present.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { ApiError } from '../platform/http/api-error.js';
import { p, rejectTogether } from '../platform/http/params.js';
import type { EnvironmentState, EnvironmentTier } from '../platform/db/tables/environments.js';
import { environmentEntity, environmentWithLastDeployment, type EnvironmentRow } from './entities.js';
import { deployablesOf } from './hooks.js';
import { environmentsQuery, findEnvironmentWithLastDeployment } from './finder.js';
import { createEnvironment } from './create-environment.js';
import { updateEnvironment } from './update-environment.js';
import { deleteEnvironment } from './delete-environment.js';
import { stopEnvironment } from './stop-environment.js';
import { TIERS } from './tier.js';

const TAGS = ['environments'];
const SLUG_IS_GENERATED = 'is automatically generated and cannot be changed';

/** GitLab's check_unmodified_since!: 412 when the record changed after the client's copy. */
function unmodifiedSince(header: string | string[] | undefined) {
  const since = typeof header === 'string' ? Date.parse(header) : Number.NaN;
  return (env: EnvironmentRow) => {
    if (!Number.isNaN(since) && Number(env.updated_at) > since + 999) throw new ApiError(412, { message: '412 Precondition Failed' });
  };
}

export function environmentsRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/environments', summary: 'List environments of a project', tags: TAGS, paginated: true,
    ability: { project: 'read_environment' },
    params: { id: p.string.required(), name: p.string.optional(), search: p.string.optional(), states: p.string.optional({ values: ['available', 'stopped'] }) },
    handler: async ({ params, input, project, paginate }) => {
      rejectTogether(input, ['name', 'search'], 'name, search cannot be used together');
      const access = await project();
      const rows = await paginate(environmentsQuery(deps.db, access.project.id, { name: params.name, search: params.search, states: params.states as EnvironmentState }));
      return rows.map(environmentEntity);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/environments/:environment_id', summary: 'One environment with its last successful deployment', tags: TAGS,
    ability: { project: 'read_environment' },
    params: { id: p.string.required(), environment_id: p.integer.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const { env, last } = await findEnvironmentWithLastDeployment(deps.db, access.project.id, params.environment_id);
      const deployableId = last?.deployment.deployable_id ?? null;
      const deployable = deployableId === null ? null : ((await deployablesOf(deps, access.project, [{ deployable_id: deployableId }])).get(Number(deployableId)) ?? null);
      return environmentWithLastDeployment(base, env, last, deployable);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/environments', summary: 'Create an environment', tags: TAGS,
    ability: { project: 'create_environment' },
    params: { id: p.string.required(), name: p.string.required(), external_url: p.string.optional(), tier: p.string.optional({ values: TIERS }), slug: p.absent(SLUG_IS_GENERATED) },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const env = await createEnvironment(deps, actor, { access, name: params.name, externalUrl: params.external_url, tier: params.tier as EnvironmentTier });
      return environmentEntity(env);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/environments/:environment_id', summary: 'Rename an environment or change its URL or tier', tags: TAGS,
    ability: { project: 'update_environment' },
    params: {
      id: p.string.required(),
      environment_id: p.integer.required(),
      name: p.string.optional(),
      external_url: p.string.optional(),
      tier: p.string.optional({ values: TIERS }),
      slug: p.absent(SLUG_IS_GENERATED),
    },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const env = await updateEnvironment(deps, actor, { access, environmentId: params.environment_id, name: params.name, externalUrl: params.external_url, tier: params.tier as EnvironmentTier });
      return environmentEntity(env);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/environments/:environment_id', summary: 'Delete a stopped environment', tags: TAGS,
    // destroy_environment is decided on the environment (it must be stopped), after it is found.
    ability: { project: 'read_environment' },
    params: { id: p.string.required(), environment_id: p.integer.required() },
    handler: async ({ params, actor, request, project }) => {
      const access = await project();
      await deleteEnvironment(deps, actor, { access, environmentId: params.environment_id, precondition: unmodifiedSince(request.headers['if-unmodified-since']) });
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/environments/:environment_id/stop', summary: 'Stop an environment', tags: TAGS, status: 200,
    // Readers may call it; without stop_environment it changes nothing (stop-environment.ts).
    ability: { project: 'read_environment' },
    params: { id: p.string.required(), environment_id: p.integer.required() },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      return environmentEntity(await stopEnvironment(deps, actor, { access, environmentId: params.environment_id }));
    },
  });
}
