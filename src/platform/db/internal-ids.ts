// Per-project iid sequences (issues, alerts, deployments). The counter row is bumped with one
// conditional UPDATE … RETURNING inside the caller's transaction, so two nodes never hand out the
// same iid; the first use inserts the row, and a racing insert falls back to the update. Raw SQL,
// because every new alert takes an iid on the alert endpoint's path (docs/performance.md).
import { q, type Tx } from './statements.js';

/** In the caller's transaction. */
export async function nextInternalId(tx: Tx, projectId: number, usage: string): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const [bumped] = await tx.all<{ last_value: number }>(q`
      update internal_ids set last_value = last_value + 1 where project_id = ${projectId} and usage = ${usage} returning last_value`);
    if (bumped) return Number(bumped.last_value);
    const [inserted] = await tx.all<{ last_value: number }>(q`
      insert into internal_ids (project_id, usage, last_value) values (${projectId}, ${usage}, 1)
      on conflict (project_id, usage) do nothing returning last_value`);
    if (inserted) return 1;
  }
  throw new Error(`could not allocate an iid for project ${projectId} (${usage})`);
}
