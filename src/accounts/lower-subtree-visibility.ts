// A group moved under a less visible parent: everything below it that is more visible than the
// parent is lowered to the parent's visibility (GitLab's Groups::TransferService).
import type { Executor } from '../platform/db/database.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import { ORDER } from './visibility.js';

export async function lowerSubtreeVisibility(executor: Executor, fullPath: string, visibility: Visibility): Promise<void> {
  const moreVisibleThan = ORDER.slice(ORDER.indexOf(visibility) + 1);
  if (moreVisibleThan.length === 0) return;
  const lower = fullPath.toLowerCase();
  for (const table of ['namespaces', 'projects'] as const) {
    await executor
      .updateTable(table)
      .set({ visibility })
      .where('full_path_lower', '>=', `${lower}/`)
      .where('full_path_lower', '<', `${lower}0`)
      .where('visibility', 'in', moreVisibleThan)
      .execute();
  }
}
