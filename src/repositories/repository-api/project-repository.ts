// A project's repository as the API reads and writes it. Repositories are made on first use (a push
// or an API commit), so a project without one reads as an empty repository, and only a write makes one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { ensureRepository, findRepository } from '../ensure-repository.js';
import { repositoryPath } from '../shards.js';
import { listRefs } from '../git.js';

/** The repository's path on its shard, or null when the project has none yet. */
export async function readableRepository(deps: Deps, project: ProjectRow): Promise<string | null> {
  const row = await findRepository(deps, 'project', Number(project.id));
  if (!row) return null;
  const path = repositoryPath(deps.config.storages, row.shard, row.disk_path);
  return existsSync(join(path, 'HEAD')) ? path : null;
}

export async function writableRepository(deps: Deps, project: ProjectRow): Promise<string> {
  const { path } = await ensureRepository(deps, { type: 'project', id: Number(project.id), defaultBranch: project.default_branch });
  return path;
}

/** Branches and tags with their ids; an absent repository has none. */
export async function repositoryRefs(path: string | null): Promise<Map<string, string>> {
  return path ? listRefs(path) : new Map();
}

/** GitLab's empty_repo?: no branch at all. */
export function isEmptyRepository(refs: Map<string, string>): boolean {
  return ![...refs.keys()].some((ref) => ref.startsWith('refs/heads/'));
}
