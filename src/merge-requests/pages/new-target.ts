// Where a new merge request from this project may go (GitLab's target project picker): the project
// itself, or — for a fork — its upstream, when the author may read the upstream's merge requests.
// A fork targets its upstream by default unless its `mr_default_target_self` says otherwise, as
// GitLab's Project#default_merge_request_target.
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/index.js';
import { inSameForkNetwork, projectAccess } from '../../accounts/api.js';
import { fullProject } from '../finder.js';

export interface TargetChoice {
  /** The projects offered, this project first. */
  offered: ProjectAccess[];
  chosen: ProjectAccess;
}

async function upstreamOf(deps: Deps, user: AuthUser, source: ProjectAccess): Promise<ProjectAccess | null> {
  const upstreamId = source.project.forked_from_project_id;
  if (upstreamId === null || upstreamId === undefined) return null;
  const row = await fullProject(deps.db, Number(upstreamId));
  if (!row || !(await inSameForkNetwork(deps.db, Number(source.project.id), Number(row.id)))) return null;
  const { level, namespace } = await projectAccess(deps.reads, user, row, deps.clock.now());
  const access: ProjectAccess = { user, level, visibility: row.visibility, features: row, project: row, namespace };
  return canOnProject(access, 'read_project') && canOnProject(access, 'read_merge_request') ? access : null;
}

/** The targets offered to `user` from `source`, and the one asked for (by id) or the default. */
export async function targetChoice(deps: Deps, user: AuthUser, source: ProjectAccess, askedId: number | null): Promise<TargetChoice> {
  const upstream = await upstreamOf(deps, user, source);
  const offered = upstream ? [source, upstream] : [source];
  const asked = askedId === null ? undefined : offered.find((access) => Number(access.project.id) === askedId);
  const byDefault = upstream && Number(source.project.mr_default_target_self) !== 1 ? upstream : source;
  return { offered, chosen: asked ?? byDefault };
}
