// Old full paths that keep leading to a renamed or moved project (GitLab's redirect_routes): the API
// and git follow them (lookup.ts) until another project or namespace takes the path.
import type { Executor } from '../platform/db/database.js';
import { descendantPaths } from './rename-queries.js';

export interface RedirectSource {
  type: 'Project' | 'Namespace';
  id: number;
}

/** A path now taken by a project or namespace no longer redirects anywhere. */
export async function releasePath(executor: Executor, fullPath: string): Promise<void> {
  await executor.deleteFrom('redirect_routes').where('path_lower', '=', fullPath.toLowerCase()).execute();
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

/** The paths a moved subtree now occupies (`newPath` and below) no longer redirect anywhere. */
export async function releaseSubtree(executor: Executor, newPath: string): Promise<void> {
  const lower = newPath.toLowerCase();
  await executor
    .deleteFrom('redirect_routes')
    .where((eb) => eb.or([eb('path_lower', '=', lower), eb.and([eb('path_lower', '>=', `${lower}/`), eb('path_lower', '<', `${lower}0`)])]))
    .execute();
}

/** Forget the redirects of a deleted project or namespace. */
export async function forgetRedirects(executor: Executor, source: RedirectSource): Promise<void> {
  await executor.deleteFrom('redirect_routes').where('source_type', '=', source.type).where('source_id', '=', source.id).execute();
}
