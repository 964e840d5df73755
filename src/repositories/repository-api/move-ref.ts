// Moving a branch on behalf of a merge (merge requests' merge, rebase and source-branch deletion),
// whose permission was decided by the caller (GitLab's merge access, not a push's): a compare-and-swap
// of the ref (`git update-ref <ref> <new> <old>`), so a merge that raced another push or merge fails
// instead of losing it, then the push events as any push records them.
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { gitCall, listRefs } from '../git.js';
import { recordPushEvents } from '../record-push-events.js';
import { ZERO_OID } from './ref-names.js';

export interface RefMove {
  project: ProjectRow;
  user: AuthUser;
  repoPath: string;
  /** The full ref name, `refs/heads/main`. */
  ref: string;
  /** What the ref must still point at; ZERO_OID for a ref that must not exist. */
  oldId: string;
  /** ZERO_OID to delete. */
  newId: string;
  /** No pipeline for the move (the rebase API's skip_ci). */
  skipCi?: boolean;
}

/** True when the ref moved; false when it was no longer at `oldId` (nothing changed). */
export async function moveRef(deps: Deps, move: RefMove): Promise<boolean> {
  const before = await listRefs(move.repoPath);
  const deleting = move.newId === ZERO_OID;
  const args = deleting ? ['update-ref', '-d', move.ref, move.oldId] : ['update-ref', move.ref, move.newId, move.oldId];
  const outcome = await gitCall(move.repoPath, args);
  if (outcome.code !== 0) return false;
  const pushedBefore = new Map(before);
  pushedBefore.set(move.ref, move.oldId);
  if (move.oldId === ZERO_OID) pushedBefore.delete(move.ref);
  const after = new Map(pushedBefore);
  if (deleting) after.delete(move.ref);
  else after.set(move.ref, move.newId);
  try {
    await recordPushEvents(deps, { projectId: Number(move.project.id), authorId: move.user.id, repoPath: move.repoPath, before: pushedBefore, after, skipCi: move.skipCi });
  } catch (error) {
    // The ref has moved: what follows must not turn the merge into an error.
    deps.log.error({ err: error, project_id: move.project.id, ref: move.ref }, 'recording a merge push failed');
  }
  return true;
}
