// The issue or merge request an unsubscribe link names, with its reference as GitLab writes it
// (`group/project#iid`, `group/project!iid`).
import type { Deps } from '../platform/deps.js';
import type { UnsubscribeType } from './unsubscribe-link.js';
import type { Subscribable } from './subscriptions.js';

/** Null when it is gone. */
export async function subscribableWithReference(deps: Deps, type: UnsubscribeType, id: number): Promise<{ subject: Subscribable; reference: string } | null> {
  const row =
    type === 'Issue'
      ? await deps.db.selectFrom('issues').select(['id', 'iid', 'project_id']).where('id', '=', id).executeTakeFirst()
      : await deps.db.selectFrom('merge_requests').select(['id', 'iid', 'target_project_id as project_id']).where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const project = await deps.db.selectFrom('projects').select(['full_path']).where('id', '=', row.project_id).executeTakeFirstOrThrow();
  return { subject: { type, id: Number(row.id), projectId: Number(row.project_id) }, reference: `${project.full_path}${type === 'Issue' ? '#' : '!'}${row.iid}` };
}
