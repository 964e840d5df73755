// A fork's repository: a local `git clone --bare` of the upstream on the upstream's shard, which
// hard-links the upstream's object files instead of copying them (git's default for a local path).
// The fork so takes almost no disk of its own, yet owns its objects: a hard link is a second name of
// the same file, so deleting the upstream, moving it to another shard, or the upstream's `git gc`
// dropping a pack leaves the fork whole. Alternates (objects/info/alternates naming the upstream)
// would share as well, but tie the fork to the upstream's path and pruning: a move would have to
// rewrite every fork's alternates, a deletion repack every fork first, and an upstream gc could prune
// objects only a fork still reached. Across file systems (another shard) git copies instead.
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { isUniqueViolation } from '../platform/db/database.js';
import { diskPathFor, ensureRepository, findRepository } from './ensure-repository.js';
import { repositoryPath } from './shards.js';
import { git, gitCall, runCommand } from './git.js';

export interface ForkRepositoryInput {
  upstreamId: number;
  forkId: number;
  /** The fork's default branch (an empty upstream gets an empty fork with it). */
  defaultBranch: string;
  /** Only this branch (GitLab's `branches`): the others and the tags are left out. */
  branch?: string;
}

/** Drop every ref but `branch`, and point HEAD at it. */
async function keepOnly(path: string, branch: string): Promise<void> {
  const refs = (await git(path, ['for-each-ref', '--format=%(refname)'])).split('\n').filter((ref) => ref !== '' && ref !== `refs/heads/${branch}`);
  if (refs.length) await gitCall(path, ['update-ref', '--stdin', '-z'], { input: refs.map((ref) => `delete ${ref}\0\0`).join('') });
  await git(path, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
}

/** Make the fork's repository (its row on the upstream's shard, then the clone); idempotent. */
export async function forkRepository(deps: Deps, input: ForkRepositoryInput): Promise<void> {
  const upstream = await findRepository(deps, 'project', input.upstreamId);
  const upstreamPath = upstream ? repositoryPath(deps.config.storages, upstream.shard, upstream.disk_path) : null;
  if (!upstream || !upstreamPath || !existsSync(join(upstreamPath, 'HEAD'))) {
    // Nothing pushed yet: the fork starts as empty as its upstream.
    await ensureRepository(deps, { type: 'project', id: input.forkId, defaultBranch: input.defaultBranch });
    return;
  }
  const now = deps.clock.now();
  const diskPath = diskPathFor({ type: 'project', id: input.forkId });
  try {
    await deps.db.insertInto('repositories').values({ container_type: 'project', container_id: input.forkId, shard: upstream.shard, disk_path: diskPath, created_at: now, updated_at: now }).execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const row = (await findRepository(deps, 'project', input.forkId))!;
  const destination = repositoryPath(deps.config.storages, row.shard, row.disk_path);
  await mkdir(dirname(destination), { recursive: true });
  const temporary = `${destination}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    await runCommand('git', ['clone', '--bare', '--quiet', '--', upstreamPath, temporary]);
    await git(temporary, ['remote', 'remove', 'origin']);
    if (input.branch !== undefined) await keepOnly(temporary, input.branch);
    // A request that reached the fork's repository before the clone finished found none and made an
    // empty one (ensureRepository); the clone replaces it.
    if (existsSync(destination)) await rm(destination, { recursive: true, force: true });
    await rename(temporary, destination);
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}
