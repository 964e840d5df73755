// Pushes in flight to a group's wiki. A push takes a lease *before* it checks the read-only flag and
// a move waits for the leases to go *after* the flag is set, so no push can write to the source
// once the copy has begun (GitLab waits the same way: up to 3 × 10 s, then the move fails).
import type { Deps } from '../platform/deps.js';

const PUSH_LEASE_MS = 10 * 60_000;
export const PUSH_WAIT_MS = 30_000;
const POLL_MS = 250;

export async function beginPush(deps: Deps, groupId: number): Promise<{ leaseId: number; readOnly: boolean }> {
  const lease = await deps.db
    .insertInto('repository_push_leases')
    .values({ container_type: 'group', container_id: groupId, expires_at: deps.clock.now() + PUSH_LEASE_MS })
    .returning('id')
    .executeTakeFirstOrThrow();
  const group = await deps.db.selectFrom('namespaces').select('read_only').where('id', '=', groupId).executeTakeFirst();
  const readOnly = group?.read_only === 1;
  if (readOnly) await endPush(deps, Number(lease.id));
  return { leaseId: Number(lease.id), readOnly };
}

export async function endPush(deps: Deps, leaseId: number): Promise<void> {
  await deps.db.deleteFrom('repository_push_leases').where('id', '=', leaseId).execute();
}

export async function waitForPushes(deps: Deps, groupId: number, timeoutMs = PUSH_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const active = await deps.db
      .selectFrom('repository_push_leases')
      .select('id')
      .where('container_type', '=', 'group')
      .where('container_id', '=', groupId)
      .where('expires_at', '>', deps.clock.now())
      .executeTakeFirst();
    if (!active) return;
    if (Date.now() >= deadline) throw new Error('Timeout waiting for wiki repository pushes');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
