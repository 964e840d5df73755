// LFS objects no project links any more (their projects deleted: the links go with the project rows),
// removed from disk and forgotten by the daily orphan job (repositories/prune-orphans.ts). An object
// written in the last hour is left for the next run: an upload renames its file into place before it
// records the link, and must not lose it to a run that saw the old, unlinked row in between.
import { rm, stat } from 'node:fs/promises';
import type { Deps } from '../../platform/deps.js';
import { objectPath } from './object-store.js';

const BATCH = 1000;
const FRESH_MS = 60 * 60 * 1000;

async function modifiedAt(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}

/** Remove up to BATCH orphaned objects; the number removed. */
export async function pruneOrphanLfsObjects(deps: Deps): Promise<number> {
  const orphans = await deps.db
    .selectFrom('lfs_objects as o')
    .select(['o.id', 'o.oid'])
    .where((eb) => eb.not(eb.exists(eb.selectFrom('lfs_objects_projects as l').select('l.id').whereRef('l.lfs_object_id', '=', 'o.id'))))
    .orderBy('o.id')
    .limit(BATCH)
    .execute();
  let removed = 0;
  for (const orphan of orphans) {
    const path = objectPath(deps.config.lfsPath, orphan.oid);
    const modified = await modifiedAt(path);
    if (modified !== null && deps.clock.now() - modified < FRESH_MS) continue;
    // Only while still unlinked: an upload that linked it meanwhile keeps it.
    const deleted = await deps.db
      .deleteFrom('lfs_objects as o')
      .where('o.id', '=', orphan.id)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('lfs_objects_projects as l').select('l.id').whereRef('l.lfs_object_id', '=', 'o.id'))))
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) continue;
    await rm(path, { force: true });
    removed += 1;
  }
  if (removed) deps.log.info({ removed }, 'orphaned LFS objects removed');
  return removed;
}
