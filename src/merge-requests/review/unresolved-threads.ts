// The facts review gives merge requests through their hook (merge-requests/hooks.ts): unresolved
// resolvable threads per merge request, for `blocking_discussions_resolved`, the
// `discussions_not_resolved` check and the 405 on merge.
import type { Executor } from '../../platform/db/database.js';

export async function unresolvedThreads(db: Executor, mergeRequestIds: number[]): Promise<Map<number, number>> {
  if (mergeRequestIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('notes')
    .select((eb) => ['noteable_id', eb.fn.count<number>('discussion_id').distinct().as('n')])
    .where('noteable_type', '=', 'MergeRequest')
    .where('noteable_id', 'in', mergeRequestIds)
    .where('type', 'in', ['DiscussionNote', 'DiffNote'])
    .where('system', '=', 0)
    .where('resolved_at', 'is', null)
    .groupBy('noteable_id')
    .execute();
  return new Map(rows.map((row) => [Number(row.noteable_id), Number(row.n)]));
}
