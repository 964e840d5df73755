// Delete a project's rows; what references it goes with it (foreign keys cascade), its repository is
// removed from disk by the repositories feature's daily orphan job, its old paths stop redirecting.
import type { Deps } from '../platform/deps.js';
import { inTransaction, type DbTransaction } from '../platform/db/database.js';
import type { ProjectRow } from './access.js';
import { forgetRedirects } from './forget-redirects.js';
import { removeAvatar } from './remove-avatar.js';
import { leaveForkNetwork } from './fork-network.js';
import { publishProjectEvent } from './system-events.js';
import { scheduleBotDeletions } from './schedule-user-deletion.js';

/**
 * The deletion itself, inside a caller's transaction (a group's deletion removes many). System hooks'
 * project_destroy is published first, while the project and its owners can still be read; the
 * project's bot users are queued for deletion (scheduleBotDeletions).
 */
export async function deleteProjectRows(deps: Deps, executor: DbTransaction, projectId: number, actorId: number | null): Promise<void> {
  await publishProjectEvent(deps, executor, 'project.destroyed', projectId, actorId);
  await scheduleBotDeletions(deps, executor, { type: 'Project', id: projectId }, actorId);
  await executor.deleteFrom('members').where('source_type', '=', 'Project').where('source_id', '=', projectId).execute();
  await executor.deleteFrom('access_requests').where('source_type', '=', 'Project').where('source_id', '=', projectId).execute();
  await forgetRedirects(executor, { type: 'Project', id: projectId });
  await removeAvatar(executor, 'Project', projectId);
  // Its upstream counts one fork less; its forks stay, naming no upstream (GitLab's fork network).
  await leaveForkNetwork(executor, projectId);
  await executor.deleteFrom('projects').where('id', '=', projectId).execute();
}

export async function deleteProject(deps: Deps, project: ProjectRow, actorId: number | null): Promise<void> {
  await inTransaction(deps.db, (trx) => deleteProjectRows(deps, trx, Number(project.id), actorId));
  deps.pokeWorker();
}
