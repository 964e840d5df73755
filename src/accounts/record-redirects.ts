// Old full paths that keep leading to a renamed or moved project (GitLab's redirect_routes): the API
// and git follow them (lookup.ts) until another project or namespace takes the path.
import type { Executor } from '../platform/db/database.js';
import { descendantPaths } from './rename-queries.js';
import { releasePath } from './release-redirects.js';

export interface RedirectSource {
  type: 'Project' | 'Namespace';
  id: number;
}

/** Remember `oldPath` for `source`; a redirect already on that path now points here. */
export async function recordRedirect(executor: Executor, source: RedirectSource, oldPath: string, now: number): Promise<void> {
  await releasePath(executor, oldPath);
  await executor
    .insertInto('redirect_routes')
    .values({ source_type: source.type, source_id: source.id, path: oldPath, path_lower: oldPath.toLowerCase(), created_at: now })
    .execute();
}

/**
 * Redirects for a namespace leaving `oldPath` and for everything below it, as GitLab's
 * Route#rename_descendants does. Call before the descendants' paths are rewritten.
 */
export async function recordSubtreeRedirects(executor: Executor, namespaceId: number, oldPath: string, now: number): Promise<void> {
  for (const descendant of await descendantPaths(executor, oldPath)) {
    await recordRedirect(executor, { type: descendant.source_type, id: descendant.source_id }, descendant.full_path, now);
  }
  await recordRedirect(executor, { type: 'Namespace', id: namespaceId }, oldPath, now);
}
