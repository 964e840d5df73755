// The runners a project can use (GitLab's Ci::Runner.owned_or_instance_wide, which GET
// /projects/:id/runners lists): its own project runners, the group runners of its group and every
// group above it unless the project turned group runners off (group_runners_enabled), and the
// instance's runners unless it turned those off (shared_runners_enabled). The job claim gives these
// same runners the project's jobs (claim-job.ts).
import type { Deps } from '../../platform/deps.js';
import type { NamespaceRow, ProjectRow } from '../../platform/auth/subjects.js';
import type { CiRunnerRow } from '../entities.js';

/** A group's path and the paths of the groups above it: `a/b/c` → `a`, `a/b`, `a/b/c`. */
function selfAndAncestorPaths(fullPathLower: string): string[] {
  const segments = fullPathLower.split('/');
  return segments.map((_, index) => segments.slice(0, index + 1).join('/'));
}

export function availableRunners(deps: Deps, project: ProjectRow, namespace: NamespaceRow): Promise<CiRunnerRow[]> {
  const groupPaths = namespace.kind === 'group' && Number(project.group_runners_enabled) === 1 ? selfAndAncestorPaths(namespace.full_path_lower) : [];
  return deps.db
    .selectFrom('ci_runners')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('runner_type', '=', 'project_type'), eb('id', 'in', eb.selectFrom('ci_runner_projects').select('runner_id').where('project_id', '=', project.id))]),
        ...(groupPaths.length
          ? [eb.and([eb('runner_type', '=', 'group_type'), eb('group_id', 'in', eb.selectFrom('namespaces').select('id').where('kind', '=', 'group').where('full_path_lower', 'in', groupPaths))])]
          : []),
        ...(Number(project.shared_runners_enabled) === 1 ? [eb('runner_type', '=', 'instance_type')] : []),
      ]),
    )
    .orderBy('id')
    .execute();
}
