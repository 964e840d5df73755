// After every push, the repository's commit-graph is brought up to its new refs in the background
// (commit-graph.ts): the push's request never waits for it, and the first blame, history or tree page
// after the push walks a graph that knows the pushed commits. Queued once per push, in the transaction
// that records it, before the push's page-cache jobs (the queue claims in order), whose walks then
// use the new layer too.
import type { Deps } from '../../platform/deps.js';
import type { Tx } from '../../platform/db/statements.js';
import { enqueue } from '../../platform/jobs/queue.js';
import { findProjectRow } from '../../accounts/api.js';
import { readableRepository } from '../repository-api/project-repository.js';
import { writeCommitGraph } from './commit-graph.js';

export const COMMIT_GRAPH_JOB = 'repositories.commit_graph';

interface CommitGraphPayload {
  projectId: number;
}

/** Transactions that already queued theirs: a push announces each ref it moved as one event, all in one transaction. */
const queued = new WeakSet<object>();

export async function queueCommitGraphAfterPush(deps: Deps, tx: Tx, projectId: number): Promise<void> {
  if (queued.has(tx)) return;
  queued.add(tx);
  const payload: CommitGraphPayload = { projectId };
  await enqueue(tx, deps.clock, COMMIT_GRAPH_JOB, { ...payload });
}

export async function commitGraphJob(deps: Deps, payload: CommitGraphPayload): Promise<void> {
  const project = await findProjectRow(deps, payload.projectId);
  const repoPath = project ? await readableRepository(deps, project) : null;
  if (repoPath) await writeCommitGraph(repoPath);
}
