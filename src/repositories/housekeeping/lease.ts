// One housekeeping at a time per repository, across nodes: a lease in the repository's row, taken
// with one conditional update (the database decides who has it) and given back when the run ends.
// A run that dies keeps it until it ends on its own, as GitLab's exclusive lease does.
import type { Deps } from '../../platform/deps.js';
import type { Tx } from '../../platform/db/statements.js';
import { takeLease } from './housekeeping-queries.js';

/** GitLab's HousekeepingService::LEASE_TIMEOUT. */
export const HOUSEKEEPING_LEASE_MS = 60 * 60_000;

/** GitLab's LeaseTaken message. */
export const LEASE_TAKEN_MESSAGE = `Somebody already triggered housekeeping for this resource in the past ${HOUSEKEEPING_LEASE_MS / 60_000} minutes`;

/** Takes the lease of the project's repository; false while another run holds it (or there is no repository). */
export function takeHousekeepingLease(tx: Tx, projectId: number, now: number): Promise<boolean> {
  return takeLease(tx, projectId, now, now + HOUSEKEEPING_LEASE_MS);
}

/** Gives the lease back; `resetPushes` after a full gc, which starts the count again, in the same statement. */
export async function releaseHousekeepingLease(deps: Deps, projectId: number, options: { resetPushes: boolean }): Promise<void> {
  await deps.db
    .updateTable('repositories')
    .set({ housekeeping_leased_until: null, ...(options.resetPushes ? { pushes_since_gc: 0 } : {}) })
    .where('container_type', '=', 'project')
    .where('container_id', '=', projectId)
    .execute();
}
