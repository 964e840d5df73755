// The commit a pipeline runs, for the CI_COMMIT_* variables of each job handed out. Every job of a
// pipeline asks for the same commit, and a commit read by its full id never changes (the id is the
// hash of its content), so the parsed commit is kept per app by project and id: reading it through
// the repository's git thread was the largest part of a hand-out's CPU (issue 39). Only the commit's
// content is kept. Whether the project's repository is there to read is asked on every call, before
// the cache: a repository that is gone gives no commit, as before.
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { cacheSlot } from '../../platform/instance-caches.js';
import { BoundedMap } from '../../platform/bounded-map.js';
import { findCommit, readableRepository, type CommitObject } from '../../repositories/api.js';

const COMMITS = cacheSlot('ci.pipeline-commits', () => new BoundedMap<string, CommitObject>(256));

export async function pipelineCommit(deps: Deps, project: ProjectRow, sha: string): Promise<CommitObject | null> {
  const repoPath = await readableRepository(deps, project);
  if (!repoPath) return null;
  const commits = deps.caches.of(COMMITS);
  const key = `${project.id}:${sha}`;
  const kept = commits.get(key);
  if (kept) return kept;
  const commit = await findCommit(repoPath, sha);
  // Kept only when `sha` was the commit's full id: another name (a ref) could name another commit later.
  if (commit && commit.id === sha) commits.set(key, commit);
  return commit;
}
