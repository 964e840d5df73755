// Delete a project's rows; what references it goes with it (foreign keys cascade), its repository is
// removed from disk by the repositories feature's daily orphan job, its old paths stop redirecting.
import type { Deps } from '../platform/deps.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import type { ProjectRow } from './access.js';
import { forgetRedirects } from './forget-redirects.js';
import { removeAvatar } from './remove-avatar.js';

/** The deletion itself, inside a caller's transaction (a group's deletion removes many). */
export async function deleteProjectRows(executor: Executor, projectId: number): Promise<void> {
  await executor.deleteFrom('members').where('source_type', '=', 'Project').where('source_id', '=', projectId).execute();
  await forgetRedirects(executor, { type: 'Project', id: projectId });
  await removeAvatar(executor, 'Project', projectId);
  await executor.deleteFrom('projects').where('id', '=', projectId).execute();
}

export async function deleteProject(deps: Deps, project: ProjectRow): Promise<void> {
  await inTransaction(deps.db, (trx) => deleteProjectRows(trx, Number(project.id)));
}
