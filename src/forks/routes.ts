// Forks API (doc/api/project_forks.md; lib/api/projects.rb): fork, list forks, link an existing
// project as a fork, and unlink one.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ApiError } from '../platform/http/api-error.js';
import { JsonText } from '../platform/http/json-text.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { findProject, forkedFromJson, namespacesOf, PROJECT_LIST_PARAMS, projectAccess, projectFilters, projectJson } from '../accounts/api.js';
import { forkProject } from './fork-project.js';
import { linkFork } from './link-fork.js';
import { unlinkFork } from './unlink-fork.js';
import { forksQuery } from './forks-finder.js';

const TAGS = ['projects'];
const VISIBILITIES = ['private', 'internal', 'public'] as const;

/** Projects as GitLab's Project entity, with `forked_from_project` and the caller's permissions. */
async function projectsJson(deps: Deps, user: AuthUser | null, rows: ProjectRow[], withPermissions: boolean): Promise<string[]> {
  const [namespaces, forkedFrom] = await Promise.all([namespacesOf(deps, rows), forkedFromJson(deps, deps.config, user, rows)]);
  const out: string[] = [];
  for (const row of rows) {
    const namespace = namespaces.get(Number(row.namespace_id))!;
    const permissions = withPermissions ? await projectAccess(deps.reads, user, row, deps.clock.now()) : undefined;
    out.push(projectJson(deps.caches, deps.config, row, namespace, permissions, forkedFrom.get(Number(row.id))));
  }
  return out;
}

export function forkRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/fork', summary: 'Fork a project into a namespace', tags: TAGS,
    // fork_project is asked by forkProject: GitLab answers 404, not 403, when it is refused.
    ability: { project: 'read_project' },
    params: {
      id: p.string.required(),
      namespace_id: p.integer.optional(),
      namespace_path: p.string.optional(),
      // GitLab's deprecated `namespace`: an id or a path.
      namespace: p.string.optional(),
      name: p.string.optional({ allowBlank: false }),
      path: p.string.optional({ allowBlank: false }),
      description: p.string.optional(),
      visibility: p.string.optional({ values: VISIBILITIES }),
      mr_default_target_self: p.boolean.optional(),
      branches: p.string.optional(),
    },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const legacy = params.namespace;
      const fork = await forkProject(deps, actor, access, {
        namespaceId: params.namespace_id ?? (legacy !== undefined && /^\d+$/.test(legacy) ? Number(legacy) : undefined),
        namespacePath: params.namespace_path ?? (legacy !== undefined && !/^\d+$/.test(legacy) ? legacy : undefined),
        name: params.name,
        path: params.path,
        description: params.description,
        visibility: params.visibility as Visibility | undefined,
        mrDefaultTargetSelf: params.mr_default_target_self,
        branches: params.branches,
      });
      const [json] = await projectsJson(deps, actor.user, [fork], true);
      return JsonText.of(json);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/forks', summary: 'The forks of a project the caller can see', tags: TAGS, paginated: true,
    ability: { project: 'read_project' }, auth: 'optional',
    params: { id: p.string.required(), ...PROJECT_LIST_PARAMS },
    handler: async ({ params, principal, project, paginate }) => {
      const access = await project();
      const user = principal?.user ?? null;
      const rows = await paginate(forksQuery(deps, user, Number(access.project.id), projectFilters(params)));
      return JsonText.of(`[${(await projectsJson(deps, user, rows, false)).join(',')}]`);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/fork/:forked_from_id', summary: 'Mark a project as a fork of another', tags: TAGS,
    ability: { project: 'remove_fork_project' },
    params: { id: p.string.required(), forked_from_id: p.string.required() },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const upstream = await findProject(deps, actor, params.forked_from_id);
      await linkFork(deps, actor, access, upstream);
      const [json] = await projectsJson(deps, actor.user, [{ ...access.project, forked_from_project_id: Number(upstream.project.id) }], true);
      return JsonText.of(json);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/fork', summary: 'Remove the fork relationship of a project', tags: TAGS,
    ability: { project: 'remove_fork_project' },
    params: { id: p.string.required() },
    handler: async ({ actor, project }) => {
      if (!(await unlinkFork(deps, actor, await project()))) throw new ApiError(304, { message: '304 Not Modified' });
      return undefined;
    },
  });
}
