// Suggestions after a push (GitLab's Suggestions::OutdateService): a suggestion is outdated when its
// thread is, or when the lines it would replace, read at the thread's new position, are no longer the
// lines it was made on. Read before the transaction that stores the answer (git is not run holding
// the database).
import type { Executor } from '../../../platform/db/database.js';
import type { MergeRequestRow } from '../../rows.js';
import type { Position } from '../position.js';
import { blobLines, linesBetween } from './new-suggestions.js';

export interface OutdatePlan {
  outdated: number[];
  current: number[];
}

export async function planOutdates(db: Executor, repoPath: string, mr: Pick<MergeRequestRow, 'id'>, discussionId: string, position: Position | null): Promise<OutdatePlan> {
  const rows = await db
    .selectFrom('suggestions as s')
    .innerJoin('notes as n', 'n.id', 's.note_id')
    .select(['s.id', 's.from_content', 's.lines_above', 's.lines_below'])
    .where('n.noteable_type', '=', 'MergeRequest')
    .where('n.noteable_id', '=', Number(mr.id))
    .where('n.discussion_id', '=', discussionId)
    .where('s.applied', '=', 0)
    .execute();
  const plan: OutdatePlan = { outdated: [], current: [] };
  if (rows.length === 0) return plan;
  const line = position?.new_line ?? null;
  const lines = position && line !== null && position.new_path ? await blobLines(repoPath, position.head_sha, position.new_path) : null;
  for (const row of rows) {
    const same = lines !== null && line !== null && linesBetween(lines, line - Number(row.lines_above), line + Number(row.lines_below)) === row.from_content;
    (same ? plan.current : plan.outdated).push(Number(row.id));
  }
  return plan;
}

export async function applyOutdates(trx: Executor, plan: OutdatePlan): Promise<void> {
  if (plan.outdated.length) await trx.updateTable('suggestions').set({ outdated: 1 }).where('id', 'in', plan.outdated).where('applied', '=', 0).execute();
  if (plan.current.length) await trx.updateTable('suggestions').set({ outdated: 0 }).where('id', 'in', plan.current).where('applied', '=', 0).execute();
}
