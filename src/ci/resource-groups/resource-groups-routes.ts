// GitLab's Resource Groups API (lib/api/ci/resource_groups.rb): a project's Developers list its
// resource groups, read one by its key (URL-encoded: a key may hold a `/`) with the job holding its
// resource and the jobs still to get it, and change its process mode. An unknown key is `404 Not found`, a process mode GitLab
// does not know `400 process_mode does not have a valid value`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { presentJobs } from '../entities.js';
import { currentJobOf, findResourceGroup, PROCESS_MODES, projectResourceGroups, resourceGroupEntity, upcomingJobsOf, type ResourceGroupRow } from './resource-group-store.js';

const TAGS = ['ci_resource_groups'];

/**
 * `changeProcessMode` saves a group's new mode and hands its resource out again by it (a job the old
 * order held back may go now); the pipelines part provides it, as moving a job publishes it and
 * updates its pipeline.
 */
export function resourceGroupsRoutes(app: FastifyInstance, deps: Deps, changeProcessMode: (group: ResourceGroupRow, mode: ResourceGroupRow['process_mode']) => Promise<ResourceGroupRow>): void {
  const one = { id: p.string.required(), key: p.string.required() };
  const read = { project: 'read_resource_group' } as const;

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/resource_groups', summary: "List a project's resource groups", tags: TAGS, paginated: true, ability: read,
    params: { id: p.string.required() },
    handler: async ({ project, paginate }) => (await paginate(projectResourceGroups(deps, Number((await project()).project.id)))).map(resourceGroupEntity),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/resource_groups/:key', summary: 'A resource group', tags: TAGS, ability: read, params: one,
    handler: async ({ params, project }) => resourceGroupEntity(await findResourceGroup(deps, Number((await project()).project.id), params.key)),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/resource_groups/:key/upcoming_jobs', summary: "A resource group's upcoming jobs", tags: TAGS, paginated: true, ability: read, params: one,
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const group = await findResourceGroup(deps, Number(access.project.id), params.key);
      return presentJobs(deps, access.project, await paginate(upcomingJobsOf(deps, group)));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/resource_groups/:key/current_job', summary: 'The job holding a resource group\'s resource', tags: TAGS, ability: read, params: one,
    handler: async ({ params, project }) => {
      const access = await project();
      const holder = await currentJobOf(deps, await findResourceGroup(deps, Number(access.project.id), params.key));
      return holder ? (await presentJobs(deps, access.project, [holder]))[0] : null;
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/resource_groups/:key', summary: "Change a resource group's process mode", tags: TAGS, ability: { project: 'update_resource_group' },
    params: { ...one, process_mode: p.string.optional({ values: [...PROCESS_MODES] }) },
    handler: async ({ params, project }) => {
      const group = await findResourceGroup(deps, Number((await project()).project.id), params.key);
      const mode = params.process_mode as ResourceGroupRow['process_mode'] | undefined;
      return resourceGroupEntity(mode === undefined || mode === group.process_mode ? group : await changeProcessMode(group, mode));
    },
  });
}
