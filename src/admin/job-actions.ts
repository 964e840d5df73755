// What an administrator does with a background job from /admin/background_jobs: retry a dead one (it
// is queued again to run now, with its attempts counted afresh) or discard one that is dead or still
// waiting. Both are conditional writes on the job's state, so a job a worker has claimed meanwhile is
// left alone (the answer says so) and two administrators cannot act twice.
import type { Deps } from '../platform/deps.js';

export async function retryJob(deps: Deps, id: number): Promise<boolean> {
  const now = deps.clock.now();
  const retried = await deps.db.updateTable('jobs').set({ state: 'queued', run_at: now, attempts: 0, lease_until: null, locked_by: null, updated_at: now }).where('id', '=', id).where('state', '=', 'dead').executeTakeFirst();
  return Number(retried.numUpdatedRows) === 1;
}

export async function discardJob(deps: Deps, id: number): Promise<boolean> {
  const deleted = await deps.db.deleteFrom('jobs').where('id', '=', id).where('state', 'in', ['dead', 'queued']).executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}
