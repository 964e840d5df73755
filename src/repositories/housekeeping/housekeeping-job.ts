// The housekeeping job: the task's git commands in the project's repository (tasks.ts) and the
// commit-graph's write (commit-graph.ts), then the lease given back (with the count started again
// after a full gc: the twentieth period's, or one asked for).
import type { Deps } from '../../platform/deps.js';
import { findProjectRow } from '../../accounts/api.js';
import { readableRepository } from '../repository-api/project-repository.js';
import { git } from '../git.js';
import { releaseHousekeepingLease } from './lease.js';
import type { HousekeepingPayload } from './schedule.js';
import { gitCommandsOf, replacesCommitGraph } from './tasks.js';
import { writeCommitGraph } from './commit-graph.js';

export async function housekeepingJob(deps: Deps, payload: HousekeepingPayload): Promise<void> {
  let gcRan = false;
  try {
    const project = await findProjectRow(deps, payload.projectId);
    const repoPath = project ? await readableRepository(deps, project) : null;
    if (!repoPath) return;
    for (const args of gitCommandsOf(payload.task)) await git(repoPath, args);
    await writeCommitGraph(repoPath, { replace: replacesCommitGraph(payload.task) });
    gcRan = payload.task === 'gc' || payload.task === 'eager' || payload.task === 'prune';
  } finally {
    await releaseHousekeepingLease(deps, payload.projectId, { resetPushes: gcRan });
  }
}
