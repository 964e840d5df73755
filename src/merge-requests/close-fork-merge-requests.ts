// A project leaving its fork network (DELETE /projects/:id/fork) closes the open merge requests
// between it and the other projects of the network (GitLab's UnlinkForkService), each as an
// ordinary close by the caller: the system note, the event, the hooks.
import type { Deps } from '../platform/deps.js';
import { fullProject } from './finder.js';
import { updateMergeRequest } from './update-merge-request.js';

export async function closeForkMergeRequests(deps: Deps, actorId: number, projectId: number): Promise<void> {
  const open = await deps.db
    .selectFrom('merge_requests')
    .selectAll()
    .where('state', 'in', ['opened', 'locked'])
    .where((eb) => eb.or([eb('source_project_id', '=', projectId), eb('target_project_id', '=', projectId)]))
    .whereRef('source_project_id', '!=', 'target_project_id')
    .orderBy('id')
    .execute();
  for (const mr of open) {
    const target = await fullProject(deps.db, Number(mr.target_project_id));
    if (target) await updateMergeRequest(deps, actorId, mr, target, { stateEvent: 'close' });
  }
}
