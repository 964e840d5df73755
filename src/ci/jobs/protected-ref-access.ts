// Who may act on the jobs and pipelines of a ref (GitLab's Ci::BuildPolicy and Ci::PipelinePolicy
// `protected_ref` condition): on a branch, someone who may push or merge there; on a tag, someone who
// may create it. Others lose update_build and update_pipeline there, so playing, retrying or
// cancelling is a 403 even for a Developer of the project.
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { StatusError } from '../../platform/errors.js';
import { canCreateTag, canMergeToBranch } from '../../repositories/api.js';

export async function mayUpdateRef(deps: Deps, project: ProjectRow, user: AuthUser | null, ref: { ref: string | null; tag: number | boolean }): Promise<boolean> {
  if (ref.ref === null) return true;
  return Number(ref.tag) === 1 || ref.tag === true ? canCreateTag(deps, project, user, ref.ref) : canMergeToBranch(deps, project, user, ref.ref);
}

/** GitLab's `403 Forbidden` when the user may not update the ref's jobs or pipelines. */
export async function assertMayUpdateRef(deps: Deps, project: ProjectRow, user: AuthUser, ref: { ref: string | null; tag: number | boolean }): Promise<void> {
  if (!(await mayUpdateRef(deps, project, user, ref))) throw new StatusError(403, '403 Forbidden');
}
