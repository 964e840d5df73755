// A diff version (GitLab's MergeRequestDiff): the target's head when it was made (start), the
// source's head (head) and their merge base (base), with the size of the diff. Made at creation and
// whenever the source branch moves (a push, the rebase endpoint), when the target is retargeted or
// reopened; the files and commits are read from git between base and head when asked.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { MergeRequestDiffRow, MergeRequestRow } from './entities.js';
import { latestDiffOf } from './finder.js';
import { mergeRequestHooks } from './hooks.js';
import { branchHead, sourceHead, DIFF_MAX_FILES, DIFF_MAX_LINES, keepHead, readRepository, versionFacts } from './mr-repository.js';

export type VersionOutcome =
  /** A new version was recorded (the first, or the head or start moved). */
  | { kind: 'recorded'; diff: MergeRequestDiffRow; previous: MergeRequestDiffRow | null }
  /** The branches are where the latest version has them. */
  | { kind: 'unchanged'; diff: MergeRequestDiffRow }
  /** A branch (or the repository) is missing: no version can be made. */
  | { kind: 'missing' };

/**
 * Record a version if the source head moved since the latest one (or `always`: a retarget, a
 * reopen). Two refreshes racing record one version each at most once: the merge request's latest id
 * is swapped only from the one this call read.
 */
export async function recordDiffVersion(deps: Deps, mr: MergeRequestRow, target: ProjectRow, options: { always?: boolean; actorId?: number | null } = {}): Promise<VersionOutcome> {
  const repoPath = await readRepository(deps, target);
  const [start, head] = await Promise.all([branchHead(repoPath, mr.target_branch), sourceHead(deps, repoPath, mr)]);
  const latest = await latestDiffOf(deps.db, mr);
  if (repoPath === null || start === null || head === null) return { kind: 'missing' };
  if (latest && latest.head_commit_sha === head && !(options.always && latest.start_commit_sha !== start)) return { kind: 'unchanged', diff: latest };
  const facts = await versionFacts(repoPath, start, head);
  await keepHead(repoPath, mr.iid, head);
  const overflow = facts.filesCount > DIFF_MAX_FILES || facts.linesCount > DIFF_MAX_LINES;
  const diff = await inTransaction(deps.db, async (trx) => {
    const row = await trx
      .insertInto('merge_request_diffs')
      .values({
        merge_request_id: Number(mr.id),
        base_commit_sha: facts.baseSha,
        start_commit_sha: start,
        head_commit_sha: head,
        state: facts.commitsCount === 0 ? 'empty' : overflow ? 'overflow' : 'collected',
        real_size: facts.filesCount > DIFF_MAX_FILES ? `${DIFF_MAX_FILES}+` : String(facts.filesCount),
        files_count: Math.min(facts.filesCount, DIFF_MAX_FILES),
        commits_count: facts.commitsCount,
        created_at: deps.clock.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const swapped = await trx
      .updateTable('merge_requests')
      .set({ latest_merge_request_diff_id: Number(row.id) })
      .where('id', '=', Number(mr.id))
      .where((eb) => (latest ? eb('latest_merge_request_diff_id', '=', Number(latest.id)) : eb('latest_merge_request_diff_id', 'is', null)))
      .executeTakeFirst();
    // Another refresh recorded this push first: this version is not needed.
    if (Number(swapped.numUpdatedRows) === 0) {
      await trx.deleteFrom('merge_request_diffs').where('id', '=', Number(row.id)).execute();
      return null;
    }
    if (latest) await mergeRequestHooks(deps).versionRecorded?.(trx, { mergeRequestId: Number(mr.id), actorId: options.actorId ?? null });
    return row;
  });
  if (diff === null) {
    const current = await latestDiffOf(deps.db, (await deps.db.selectFrom('merge_requests').selectAll().where('id', '=', Number(mr.id)).executeTakeFirstOrThrow()));
    return current ? { kind: 'unchanged', diff: current } : { kind: 'missing' };
  }
  return { kind: 'recorded', diff, previous: latest };
}
