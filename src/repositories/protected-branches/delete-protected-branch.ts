// Unprotect a branch or wildcard: the rule and its access levels go (the levels by the foreign key's cascade).
import type { Deps } from '../../platform/deps.js';
import { RecordNotFoundError } from '../../platform/errors.js';

export async function deleteProtectedBranch(deps: Deps, projectId: number, name: string): Promise<void> {
  const deleted = await deps.db.deleteFrom('protected_branches').where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new RecordNotFoundError();
}
