// The uploads of deleted projects. Deleting a project deletes its upload rows (foreign keys cascade);
// its directory under KILN_UPLOADS_PATH is removed by this daily job, as repositories are by theirs
// (repositories/prune-orphans.ts). Project ids are never reused, so a directory named after a missing
// project can never belong to a later one.
import { readdir, rm } from 'node:fs/promises';
import type { Deps } from '../platform/deps.js';
import { daily } from '../platform/jobs/daily.js';
import { projectUploadsDirectory } from './upload-files.js';

export const PRUNE_UPLOADS_JOB = 'uploads.prune_orphans';
/** Directories looked at per query. */
const BATCH = 500;

async function projectDirectories(root: string): Promise<number[]> {
  try {
    const entries = await readdir(root, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory() && /^[1-9]\d{0,17}$/.test(entry.name)).map((entry) => Number(entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Removes the directories of projects that no longer exist; how many went. */
export async function pruneOrphanUploads(deps: Deps): Promise<number> {
  const ids = await projectDirectories(deps.config.uploadsPath);
  let removed = 0;
  for (let start = 0; start < ids.length; start += BATCH) {
    const batch = ids.slice(start, start + BATCH);
    const existing = new Set((await deps.db.selectFrom('projects').select('id').where('id', 'in', batch).execute()).map((row) => Number(row.id)));
    for (const id of batch) {
      if (existing.has(id)) continue;
      await rm(projectUploadsDirectory(deps.config.uploadsPath, id), { recursive: true, force: true });
      removed += 1;
    }
  }
  if (removed) deps.log.info({ removed }, 'uploads of deleted projects removed');
  return removed;
}

export const pruneOrphanUploadsJob = daily(PRUNE_UPLOADS_JOB, async (deps) => {
  await pruneOrphanUploads(deps);
});
