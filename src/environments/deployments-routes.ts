// REST surface of deployments (GitLab's lib/api/deployments.rb; GitLab's REST API documentation): the API way to
// record what CI would, and the source of an environment's `last_deployment`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ParamError } from '../platform/errors.js';
import type { DeploymentStatus } from '../platform/db/tables/environments.js';
import { deploymentEntity, type DeploymentRow } from './entities.js';
import { deployablesOf } from './hooks.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { DEPLOYMENT_ORDER, deploymentRelations, deploymentsQuery, findDeployment, type DeploymentOrder } from './deployments-finder.js';
import { createDeployment } from './create-deployment.js';
import { updateDeploymentStatus } from './update-deployment.js';
import { ALL_STATUSES, API_STATUSES, type ApiDeploymentStatus } from './deployment-status.js';

const TAGS = ['deployments'];

/** Grape's DateTime coercion: anything Date.parse understands; otherwise `<name> is invalid`. */
function dateTime(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ParamError(`${name} is invalid`);
  return ms;
}

export function deploymentsRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;
  const present = async (project: ProjectRow, rows: DeploymentRow[]) => {
    const [{ users, environments }, deployables] = await Promise.all([deploymentRelations(deps.db, rows), deployablesOf(deps, project, rows)]);
    return rows.map((row) =>
      deploymentEntity(base, row, row.user_id === null ? null : (users.get(Number(row.user_id)) ?? null), environments.get(Number(row.environment_id)) ?? null, row.deployable_id === null ? null : (deployables.get(Number(row.deployable_id)) ?? null)),
    );
  };

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/deployments', summary: 'List deployments of a project', tags: TAGS, paginated: true,
    ability: { project: 'read_deployment' },
    params: {
      id: p.string.required(),
      order_by: p.string.optional({ values: DEPLOYMENT_ORDER }),
      sort: p.string.optional({ values: ['asc', 'desc'] }),
      updated_after: p.string.optional(),
      updated_before: p.string.optional(),
      environment: p.string.optional(),
      status: p.string.optional({ values: ALL_STATUSES }),
    },
    handler: async ({ params, project, paginate }) => {
      const filters = {
        environment: params.environment,
        status: params.status as DeploymentStatus,
        updatedAfter: dateTime('updated_after', params.updated_after),
        updatedBefore: dateTime('updated_before', params.updated_before),
        orderBy: params.order_by as DeploymentOrder,
        sort: params.sort as 'asc',
      };
      const access = await project();
      return present(access.project, await paginate(deploymentsQuery(deps.db, access.project.id, filters)));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/deployments/:deployment_id', summary: 'One deployment', tags: TAGS,
    ability: { project: 'read_deployment' },
    params: { id: p.string.required(), deployment_id: p.integer.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      return (await present(access.project, [await findDeployment(deps.db, access.project.id, params.deployment_id)]))[0];
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/deployments', summary: 'Record a deployment made outside CI', tags: TAGS,
    ability: { project: 'create_deployment' },
    params: {
      id: p.string.required(),
      environment: p.string.required(),
      sha: p.string.required(),
      ref: p.string.required(),
      tag: p.boolean.required(),
      status: p.string.required({ values: API_STATUSES }),
    },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const { deployment } = await createDeployment(deps, actor, {
        access, environment: params.environment, sha: params.sha, ref: params.ref, tag: params.tag, status: params.status as ApiDeploymentStatus,
      });
      return (await present(access.project, [deployment]))[0];
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/deployments/:deployment_id', summary: 'Change the status of a deployment', tags: TAGS,
    ability: { project: 'update_deployment' },
    params: { id: p.string.required(), deployment_id: p.integer.required(), status: p.string.required({ values: API_STATUSES }) },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const deployment = await updateDeploymentStatus(deps, actor, { access, deploymentId: params.deployment_id, status: params.status as ApiDeploymentStatus });
      return (await present(access.project, [deployment]))[0];
    },
  });
}
