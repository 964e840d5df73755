// GET /projects/:id/forks (GitLab's ForkProjectsFinder): the project's direct forks the caller can
// see, with the filters and order of GET /projects.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { visibleProjectsQuery } from '../accounts/api.js';

export type ForkFilters = Parameters<typeof visibleProjectsQuery>[2];

export function forksQuery(deps: Deps, user: AuthUser | null, projectId: number, filters: ForkFilters) {
  return visibleProjectsQuery(deps, user, filters).where('forked_from_project_id', '=', projectId);
}
