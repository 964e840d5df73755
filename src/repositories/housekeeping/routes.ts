// POST /projects/:id/housekeeping (GitLab's API, project administrators): queue `eager` (git's full gc)
// or `prune` (also unreachable objects older than 30 minutes); 409 while a run holds the lease. GitLab
// answers 201 with the queued job's id.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute } from '../../platform/http/route.js';
import { ApiError } from '../../platform/http/api-error.js';
import { p } from '../../platform/http/params.js';
import { JsonText } from '../../platform/http/json-text.js';
import { LEASE_TAKEN_MESSAGE } from './lease.js';
import { runManualHousekeeping } from './manual.js';
import { MANUAL_TASKS, type HousekeepingTask } from './tasks.js';

export function housekeepingRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/housekeeping', summary: "Start the housekeeping of the project's repository", tags: ['projects'], status: 201,
    ability: { project: 'admin_project' },
    params: { id: p.string.required(), task: p.string.optional({ values: MANUAL_TASKS }) },
    handler: async ({ params, project }) => {
      const access = await project();
      const jobId = await runManualHousekeeping(deps, access.project, (params.task ?? 'eager') as HousekeepingTask);
      if (jobId === null) throw new ApiError(409, { message: LEASE_TAKEN_MESSAGE });
      // A JSON string, as GitLab's answer (its background job's id) is: a bare string would go out as text.
      return new JsonText(String(jobId));
    },
  });
}
