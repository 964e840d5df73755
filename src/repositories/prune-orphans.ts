// Repositories whose project (or group, or snippet) was deleted: removed from disk, then forgotten.
// Deleting a project or a snippet only deletes rows (accounts/create-project.ts); this daily job, owned by the feature that
// owns the files, finds the repositories left without a container. Ids are never reused, so an orphan
// can never belong to a later project. LFS objects no project links any more go in the same run
// (lfs/prune-orphans.ts). Each step is idempotent: a crash between removing the
// directory and deleting the row is finished by the next run.
import { rmSync } from 'node:fs';
import type { Deps } from '../platform/deps.js';
import { daily } from '../platform/jobs/daily.js';
import { repositoryPath } from './shards.js';
import { closeReaders } from './git.js';
import { pruneOrphanLfsObjects } from './lfs/prune-orphans.js';

export const PRUNE_ORPHANS_JOB = 'repositories.prune_orphans';

export async function pruneOrphanRepositories(deps: Deps): Promise<number> {
  const orphans = await deps.db
    .selectFrom('repositories as r')
    .select(['r.id', 'r.shard', 'r.disk_path'])
    .where((eb) =>
      eb.or([
        eb.and([eb('r.container_type', 'in', ['project', 'project_wiki']), eb.not(eb.exists(eb.selectFrom('projects as p').select('p.id').whereRef('p.id', '=', 'r.container_id')))]),
        eb.and([eb('r.container_type', '=', 'group'), eb.not(eb.exists(eb.selectFrom('namespaces as n').select('n.id').whereRef('n.id', '=', 'r.container_id')))]),
        eb.and([eb('r.container_type', '=', 'snippet'), eb.not(eb.exists(eb.selectFrom('snippets as s').select('s.id').whereRef('s.id', '=', 'r.container_id')))]),
      ]),
    )
    .orderBy('r.id')
    .limit(1000)
    .execute();
  for (const orphan of orphans) {
    // A shard removed from KILN_STORAGES keeps its files: nothing is deleted outside a configured shard.
    if (!deps.config.storages.some((shard) => shard.name === orphan.shard)) continue;
    const path = repositoryPath(deps.config.storages, orphan.shard, orphan.disk_path);
    closeReaders(path);
    rmSync(path, { recursive: true, force: true });
    await deps.db.deleteFrom('repositories').where('id', '=', orphan.id).execute();
  }
  if (orphans.length) deps.log.info({ removed: orphans.length }, 'orphaned repositories removed');
  return orphans.length;
}

export const pruneOrphansJob = daily(PRUNE_ORPHANS_JOB, async (deps) => {
  await pruneOrphanRepositories(deps);
  await pruneOrphanLfsObjects(deps);
});
