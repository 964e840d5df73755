// Serialise the changes of one project's settings across requests and nodes: a write to the project
// row takes its row lock on PostgreSQL (held to the end of the transaction; `updated_at` is not a key
// column, so rows that reference the project stay insertable meanwhile) and SQLite's write lock at
// the start of the transaction, so the checks that follow read what the last holder committed. For
// rules that span rows ("one Prometheus integration", "no active integration while the alerting tool
// link is active") that no single index can express.
import type { Transaction } from 'kysely';
import type { DB } from '../platform/db/schema.js';

/** `update projects set updated_at = updated_at where id = …`, in the caller's transaction. */
export async function lockProject(trx: Transaction<DB>, projectId: number): Promise<void> {
  await trx.updateTable('projects').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', projectId).execute();
}
