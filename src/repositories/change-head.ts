// A project's default branch is its repository's HEAD (GitLab's Project#change_head). A repository
// with no branches yet takes any name: its first push creates the branch.
import { existsSync } from 'node:fs';
import type { Deps } from '../platform/deps.js';
import { findRepository } from './ensure-repository.js';
import { repositoryPath } from './shards.js';
import { git, listRefs, runCommand } from './git.js';

export type ChangeHeadResult = 'changed' | 'empty' | 'missing_branch' | 'invalid_name';

/** git's own rule for branch names. */
export async function isValidBranchName(branch: string): Promise<boolean> {
  if (branch === '' || branch.startsWith('-')) return false;
  return runCommand('git', ['check-ref-format', `refs/heads/${branch}`]).then(() => true, () => false);
}

export async function changeHead(deps: Deps, projectId: number, branch: string): Promise<ChangeHeadResult> {
  if (!(await isValidBranchName(branch))) return 'invalid_name';
  const row = await findRepository(deps, 'project', projectId);
  if (!row) return 'empty';
  const path = repositoryPath(deps.config.storages, row.shard, row.disk_path);
  if (!existsSync(`${path}/HEAD`)) return 'empty';
  const refs = await listRefs(path);
  const ref = `refs/heads/${branch}`;
  const hasBranches = [...refs.keys()].some((name) => name.startsWith('refs/heads/'));
  if (hasBranches && !refs.has(ref)) return 'missing_branch';
  await git(path, ['symbolic-ref', 'HEAD', ref]);
  return hasBranches ? 'changed' : 'empty';
}
