// A path taken by a project or namespace no longer redirects anywhere (GitLab's
// Route#delete_conflicting_redirects).
import type { Executor } from '../platform/db/database.js';

export async function releasePath(executor: Executor, fullPath: string): Promise<void> {
  await executor.deleteFrom('redirect_routes').where('path_lower', '=', fullPath.toLowerCase()).execute();
}

/** The paths a moved subtree now occupies (`newPath` and below). */
export async function releaseSubtree(executor: Executor, newPath: string): Promise<void> {
  const lower = newPath.toLowerCase();
  await executor
    .deleteFrom('redirect_routes')
    .where((eb) => eb.or([eb('path_lower', '=', lower), eb.and([eb('path_lower', '>=', `${lower}/`), eb('path_lower', '<', `${lower}0`)])]))
    .execute();
}
