// Storage shards (KILN_STORAGES): directories of bare repositories, each with a weight for new
// placements. GitLab picks a shard for new repositories and for moves without a destination by a
// weighted random choice (`Repository.pick_storage_shard`, GitLab's REST API documentation).
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import type { StorageShard } from '../config.js';

/**
 * Weighted choice; `roll` is an integer in [0, total weight) so tests can choose it.
 * With every weight 0 the first shard is used, as a single-shard install must keep working.
 */
export function pickShard(storages: StorageShard[], roll?: number): StorageShard {
  const total = storages.reduce((sum, shard) => sum + shard.weight, 0);
  if (total === 0) return storages[0];
  let point = roll ?? randomInt(total);
  for (const shard of storages) {
    if (point < shard.weight) return shard;
    point -= shard.weight;
  }
  return storages[storages.length - 1];
}

export function findShard(storages: StorageShard[], name: string): StorageShard | undefined {
  return storages.find((shard) => shard.name === name);
}

export function shardNames(storages: StorageShard[]): string[] {
  return storages.map((shard) => shard.name);
}

/** Absolute path of a repository on a shard. `diskPath` is always one we derived (see diskPathFor). */
export function repositoryPath(storages: StorageShard[], shardName: string, diskPath: string): string {
  const shard = findShard(storages, shardName);
  if (!shard) throw new Error(`storage shard "${shardName}" is not configured`);
  return join(shard.path, diskPath);
}
