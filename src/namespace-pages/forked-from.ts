// The "Forked from <upstream>" line of a fork's overview (GitLab's project header), shown only to
// viewers who may read the upstream — a private upstream's name is not theirs to learn.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/policy.js';
import { findProjectRow, projectAccess } from '../accounts/api.js';
import { html, type Html } from '../platform/web/html.js';

export async function forkedFromLine(deps: Deps, user: AuthUser | null, project: ProjectRow): Promise<Html | ''> {
  if (project.forked_from_project_id === null || project.forked_from_project_id === undefined) return '';
  const upstream = await findProjectRow(deps, Number(project.forked_from_project_id));
  if (!upstream) return '';
  const { level } = await projectAccess(deps.reads, user, upstream, deps.clock.now());
  if (!canOnProject({ user, level, visibility: upstream.visibility, features: upstream }, 'read_project')) return '';
  return html`<p class="forked-from">Forked from <a href="/${upstream.full_path}">${upstream.full_path}</a></p>`;
}
