// The statements housekeeping runs in a push's own transaction (a `Tx`: the domain event's), and the
// lease's, which the API takes outside one.
import { q, type Tx } from '../../platform/db/statements.js';

/** One more push to the project's repository: the new count, or null when it has no repository row. */
export async function addPush(tx: Tx, projectId: number): Promise<number | null> {
  const rows = await tx.all<{ pushes_since_gc: number | string }>(q`
    update repositories set pushes_since_gc = pushes_since_gc + 1
    where container_type = 'project' and container_id = ${projectId}
    returning pushes_since_gc`);
  return rows.length > 0 ? Number(rows[0].pushes_since_gc) : null;
}

/** Takes the lease until `until` unless a run holds it at `now`; whether it was taken. */
export async function takeLease(tx: Tx, projectId: number, now: number, until: number): Promise<boolean> {
  const rows = await tx.all<{ id: number }>(q`
    update repositories set housekeeping_leased_until = ${until}
    where container_type = 'project' and container_id = ${projectId}
      and (housekeeping_leased_until is null or housekeeping_leased_until <= ${now})
    returning id`);
  return rows.length === 1;
}
