// Per-project iid sequences (issues, alerts, deployments). The counter row is bumped with one
// conditional UPDATE … RETURNING inside the caller's transaction, so two nodes never hand out the
// same iid; the first use inserts the row, and a racing insert falls back to the update.
import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import type { DB } from './schema.js';

export async function nextInternalId(trx: Transaction<DB>, projectId: number, usage: string): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const bumped = await trx
      .updateTable('internal_ids')
      .set({ last_value: sql`last_value + 1` })
      .where('project_id', '=', projectId)
      .where('usage', '=', usage)
      .returning('last_value')
      .executeTakeFirst();
    if (bumped) return Number(bumped.last_value);
    const inserted = await trx
      .insertInto('internal_ids')
      .values({ project_id: projectId, usage, last_value: 1 })
      .onConflict((conflict) => conflict.columns(['project_id', 'usage']).doNothing())
      .returning('last_value')
      .executeTakeFirst();
    if (inserted) return 1;
  }
  throw new Error(`could not allocate an iid for project ${projectId} (${usage})`);
}
