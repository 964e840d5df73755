// Writes in flight to a repository a storage move may take (a group's wiki, a snippet's). A write
// takes a lease *before* it checks the read-only flag and a move waits for the leases to go *after*
// the flag is set, so nothing can write to the source once the copy has begun (GitLab waits the
// same way: up to 3 × 10 s, then the move fails).
import type { Deps } from '../platform/deps.js';
import { isReadOnly, type MoveContainerType } from './move-kinds.js';

const PUSH_LEASE_MS = 10 * 60_000;
export const PUSH_WAIT_MS = 30_000;
const POLL_MS = 250;

export interface MovableContainer {
  type: MoveContainerType;
  id: number;
}

export async function beginPush(deps: Deps, container: MovableContainer): Promise<{ leaseId: number; readOnly: boolean }> {
  const lease = await deps.db
    .insertInto('repository_push_leases')
    .values({ container_type: container.type, container_id: container.id, expires_at: deps.clock.now() + PUSH_LEASE_MS })
    .returning('id')
    .executeTakeFirstOrThrow();
  const readOnly = await isReadOnly(deps.db, container, container.id);
  if (readOnly) await endPush(deps, Number(lease.id));
  return { leaseId: Number(lease.id), readOnly };
}

export async function endPush(deps: Deps, leaseId: number): Promise<void> {
  await deps.db.deleteFrom('repository_push_leases').where('id', '=', leaseId).execute();
}

/** Run `work` holding a lease; `whenReadOnly` instead when a move holds the container. */
export async function whileWritable<T>(deps: Deps, container: MovableContainer, work: () => Promise<T>, whenReadOnly: () => T | Promise<T>): Promise<T> {
  const lease = await beginPush(deps, container);
  if (lease.readOnly) return whenReadOnly();
  try {
    return await work();
  } finally {
    await endPush(deps, lease.leaseId);
  }
}

export async function waitForPushes(deps: Deps, container: MovableContainer & { label: string }, timeoutMs = PUSH_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const active = await deps.db
      .selectFrom('repository_push_leases')
      .select('id')
      .where('container_type', '=', container.type)
      .where('container_id', '=', container.id)
      .where('expires_at', '>', deps.clock.now())
      .executeTakeFirst();
    if (!active) return;
    if (Date.now() >= deadline) throw new Error(`Timeout waiting for ${container.label} repository pushes`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
