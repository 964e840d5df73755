// Pushes counted towards the next housekeeping (GitLab's HousekeepingService#increment! and
// #needed?): once per push to a project's repository, in the transaction that records it, so that
// every node adds to one count; a run is queued when the count reaches the next period (tasks.ts).
// A push while a run holds the lease queues nothing: the next period's push will (GitLab rescues
// LeaseTaken there the same way).
import type { Deps } from '../../platform/deps.js';
import type { Tx } from '../../platform/db/statements.js';
import { readSettingsIn } from '../../application-settings/api.js';
import { addPush } from './housekeeping-queries.js';
import { scheduleHousekeeping } from './schedule.js';
import { taskAfterPushes } from './tasks.js';

/** Transactions already counted: a push announces each ref it moved as one event, all in one transaction. */
const counted = new WeakSet<object>();

export async function countPush(deps: Deps, tx: Tx, projectId: number): Promise<void> {
  if (counted.has(tx)) return;
  counted.add(tx);
  const pushes = await addPush(tx, projectId);
  if (pushes === null) return;
  // Read in the push's transaction: the settings' per-node copy reads through another connection.
  const settings = await readSettingsIn(tx);
  if (!settings.housekeeping_enabled) return;
  const task = taskAfterPushes(pushes, settings.housekeeping_optimize_repository_period);
  if (task) await scheduleHousekeeping(deps, tx, projectId, task);
}
