// GitLab's API::Ci::JobTokenScope (Maintainers): whether the project limits which projects' CI/CD job
// tokens may reach it, and its allowlists of those projects and of groups (whose projects, subgroups'
// included, may reach it).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { ApiError } from '../../platform/http/api-error.js';
import { NotFoundError } from '../../platform/errors.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { findProjectRow, namespacesOf, projectSimpleEntity, userCanOnProject } from '../../accounts/api.js';
import { addToAllowlist, allowlistQuery, inboundEnabled, removeFromAllowlist, setInboundEnabled } from './scope-store.js';
import { groupsAllowlistRoutes } from './groups-allowlist-routes.js';

const TAGS = ['ci'];
const ability = { project: 'admin_project' } as const;

export function jobTokenScopeRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/job_token_scope', summary: "The project's CI/CD job token access settings", tags: TAGS, ability, params: { id: p.string.required() },
    handler: async ({ project }) => ({ inbound_enabled: await inboundEnabled(deps.db, Number((await project()).project.id)), outbound_enabled: false }),
  });

  apiRoute(app, deps, {
    method: 'PATCH', url: '/projects/:id/job_token_scope', summary: 'Turn the limit of job token access to this project on or off', tags: TAGS, ability, status: 204,
    params: { id: p.string.required(), enabled: p.boolean.required({ allowBlank: false }) },
    handler: async ({ params, project }) => {
      await setInboundEnabled(deps.db, Number((await project()).project.id), params.enabled, deps.clock.now());
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/job_token_scope/allowlist', summary: 'The projects whose job tokens may reach this project', tags: TAGS, ability, paginated: true,
    params: { id: p.string.required() },
    handler: async ({ project, paginate }) => {
      const rows = (await paginate(allowlistQuery(deps.db, Number((await project()).project.id)))) as ProjectRow[];
      const namespaces = await namespacesOf(deps, rows);
      return rows.map((row) => projectSimpleEntity(deps.config, row, namespaces.get(Number(row.namespace_id))!));
    },
  });

  /** The target project, which the caller must be able to see (GitLab's AddProjectService). */
  const target = async (id: number) => {
    const row = await findProjectRow(deps, id);
    if (!row) throw new NotFoundError('target_project_id not found');
    return row;
  };

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/job_token_scope/allowlist', summary: "Allow a project's job tokens to reach this project", tags: TAGS, ability, status: 201,
    params: { id: p.string.required(), target_project_id: p.integer.required() },
    handler: async ({ params, project, actor }) => {
      const source = (await project()).project;
      const row = await target(params.target_project_id);
      if (!(await userCanOnProject(deps.reads, actor.user, row, 'read_project', deps.clock.now()))) {
        throw new ApiError(400, { message: '400 Bad request - Insufficient permissions to modify the job token scope' });
      }
      if (!(await addToAllowlist(deps.db, Number(source.id), Number(row.id), actor.user.id, deps.clock.now()))) {
        throw new ApiError(400, { message: '400 Bad request - Target project is already in the job token scope' });
      }
      return { source_project_id: Number(source.id), target_project_id: Number(row.id) };
    },
  });

  groupsAllowlistRoutes(app, deps);

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/job_token_scope/allowlist/:target_project_id', summary: 'Remove a project from the allowlist', tags: TAGS, ability,
    params: { id: p.string.required(), target_project_id: p.integer.required() },
    handler: async ({ params, project }) => {
      const row = await target(params.target_project_id);
      if (!(await removeFromAllowlist(deps.db, Number((await project()).project.id), Number(row.id)))) {
        throw new ApiError(400, { message: '400 Bad request - Target project is not in the job token scope' });
      }
      return undefined;
    },
  });
}
