// The statement a push's handlers run in the push's own transaction (a `Tx`: the domain event's).
import { q, type Tx } from '../platform/db/statements.js';

/** The project's default branch as a ref (`refs/heads/…`), or null when it has none. */
export async function defaultBranchRef(tx: Tx, projectId: number): Promise<string | null> {
  const rows = await tx.all<{ default_branch: string | null }>(q`select default_branch from projects where id = ${projectId}`);
  const branch = rows[0]?.default_branch;
  return branch ? `refs/heads/${branch}` : null;
}
