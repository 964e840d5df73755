// After a new diff version, every current diff thread is traced to it (GitLab's
// MergeRequest#update_diff_discussion_positions and Discussions::UpdateDiffPositionService): a
// thread whose line the push left alone moves to its numbers in the new version (its original
// position kept) and stays current; one whose line changed keeps its position on the old version,
// gets the change position, a system note in the thread (`changed this line in version N of the
// diff`) and, with the project's resolve_outdated_diff_discussions, is resolved by the pusher. Its
// suggestions follow: outdated with it, or when the lines they replace are no longer what they were.
//
// A job, enqueued in the transaction that recorded the version (hooks.ts `versionRecorded`). It traces
// every thread not yet traced to the latest version from the version it was last traced to, so a
// repeated or late job does nothing twice and misses nothing; each thread moves with a conditional
// update on that version.
import type { Deps } from '../../platform/deps.js';
import { inTransaction, type Executor } from '../../platform/db/database.js';
import type { NoteRow } from '../../issues/api.js';
import { lineCode as gitLabLineCode } from '../../repositories/api.js';
import type { MergeRequestDiffRow, MergeRequestRow } from '../rows.js';
import { findMergeRequestById, fullProject, latestDiffOf } from '../finder.js';
import { readRepository } from '../mr-repository.js';
import { mergeRequestWebUrl } from '../entities.js';
import { filePath, positionJson, readPosition, type Position } from './position.js';
import { tracePosition, tracedPaths, tracerDiffs, type DiffRefs, type TraceResult } from './trace-position.js';
import { fileDiffsBetween, withNewPath, withOldPath, type ParsedDiff } from './file-diffs.js';
import { lineAt, versionOf } from './validate-position.js';
import { lockMergeRequest, noteAllResolved, setThreadResolved } from './resolve-discussion.js';
import { applyOutdates, planOutdates } from './suggestions/outdate-suggestions.js';

export const TRACE_JOB = 'merge_requests.trace_diff_threads';

interface Thread {
  discussionId: string;
  first: NoteRow;
  position: Position;
  from: MergeRequestDiffRow;
}

const refsOf = (diff: MergeRequestDiffRow): DiffRefs => ({ base: diff.base_commit_sha!, start: diff.start_commit_sha!, head: diff.head_commit_sha! });

/** Diff threads not traced to `latest` yet, with the version they were last traced to (and still on). */
async function pendingThreads(deps: Deps, mr: MergeRequestRow, latest: MergeRequestDiffRow): Promise<{ live: Thread[]; stale: string[] }> {
  const notes = await deps.db
    .selectFrom('notes')
    .selectAll()
    .where('noteable_type', '=', 'MergeRequest')
    .where('noteable_id', '=', Number(mr.id))
    .where('type', '=', 'DiffNote')
    .where('system', '=', 0)
    .where('commit_id', 'is', null)
    .where('traced_to_diff_id', '<', Number(latest.id))
    .orderBy('id')
    .limit(5000)
    .execute();
  const firsts = new Map<string, NoteRow>();
  for (const note of notes) if (!firsts.has(note.discussion_id!)) firsts.set(note.discussion_id!, note);
  const versionIds = [...new Set([...firsts.values()].map((note) => Number(note.traced_to_diff_id)))];
  const versions = versionIds.length ? await deps.db.selectFrom('merge_request_diffs').selectAll().where('id', 'in', versionIds).execute() : [];
  const live: Thread[] = [];
  const stale: string[] = [];
  for (const [discussionId, first] of firsts) {
    const from = versions.find((version) => Number(version.id) === Number(first.traced_to_diff_id));
    const position = readPosition(first.position);
    // Already outdated on an earlier version: only its marker moves on.
    if (!from || !position || versionOf([from], position) === undefined || !from.head_commit_sha || !from.base_commit_sha) stale.push(discussionId);
    else live.push({ discussionId, first, position, from });
  }
  return { live, stale };
}

/** The line code of a traced text position in the new diff. */
async function lineCodeIn(repoPath: string, cd: ParsedDiff[], position: Position): Promise<string | null> {
  if (position.position_type !== 'text') return null;
  const diff = withNewPath(cd, position.new_path) ?? withOldPath(cd, position.old_path);
  if (diff) return (await lineAt(repoPath, position.head_sha, diff, position.old_line ?? null, position.new_line ?? null))?.lineCode ?? null;
  return gitLabLineCode(filePath(position), position.old_line ?? 0, position.new_line ?? 0);
}

async function versionNumber(db: Executor, mr: MergeRequestRow, latest: MergeRequestDiffRow): Promise<number> {
  const row = await db.selectFrom('merge_request_diffs').select((eb) => eb.fn.countAll<number>().as('n')).where('merge_request_id', '=', Number(mr.id)).where('id', '<=', Number(latest.id)).executeTakeFirst();
  return Number(row?.n ?? 1);
}

interface Context {
  deps: Deps;
  mr: MergeRequestRow;
  latest: MergeRequestDiffRow;
  actorId: number | null;
  resolveOutdated: boolean;
  webUrl: string;
  repoPath: string;
}

async function applyTrace(context: Context, thread: Thread, result: TraceResult, cd: ParsedDiff[]): Promise<void> {
  const { deps, mr, latest } = context;
  const now = deps.clock.now();
  const lineCode = !result.outdated && result.position ? await lineCodeIn(context.repoPath, cd, result.position) : null;
  const changeCode = result.outdated && result.position ? await lineCodeIn(context.repoPath, cd, result.position) : null;
  const suggestions = await planOutdates(deps.db, context.repoPath, mr, thread.discussionId, result.outdated ? null : result.position);
  await inTransaction(deps.db, async (trx) => {
    const changes = result.outdated
      ? { change_position: result.position ? positionJson(result.position) : null, traced_to_diff_id: Number(latest.id) }
      : { position: positionJson(result.position!), change_position: null, line_code: lineCode ?? thread.first.line_code, traced_to_diff_id: Number(latest.id) };
    // The thread's first note is the guard: another run that traced it first moved it already.
    const moved = await trx.updateTable('notes').set(changes).where('id', '=', Number(thread.first.id)).where('traced_to_diff_id', '=', Number(thread.from.id)).executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return;
    await trx.updateTable('notes').set(changes).where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', Number(mr.id)).where('discussion_id', '=', thread.discussionId).where('id', '<>', Number(thread.first.id)).execute();
    await applyOutdates(trx, suggestions);
    if (!result.outdated || context.actorId === null) return;
    const target = result.position?.position_type === 'text' ? 'line' : 'file';
    const version = `version ${await versionNumber(trx, mr, latest)} of the diff`;
    const anchor = changeCode ?? '';
    const body = `changed this ${target} in ${result.position ? `[${version}](${context.webUrl}/diffs?diff_id=${latest.id}${anchor ? `#${anchor}` : ''})` : version}`;
    await trx.insertInto('notes').values({
      project_id: Number(mr.target_project_id), noteable_type: 'MergeRequest', noteable_id: Number(mr.id), author_id: context.actorId, body, system: 1,
      discussion_id: thread.discussionId, type: 'DiffNote', position: thread.first.position, original_position: thread.first.original_position,
      line_code: thread.first.line_code, traced_to_diff_id: Number(latest.id), created_at: now, updated_at: now,
    }).execute();
    if (context.resolveOutdated) {
      await lockMergeRequest(trx, mr);
      if (await setThreadResolved(trx, mr, thread.discussionId, { id: context.actorId, byPush: true }, now)) await noteAllResolved(trx, mr, context.actorId, now);
    }
  });
}

export async function traceDiffThreads(deps: Deps, mergeRequestId: number, actorId: number | null): Promise<void> {
  const mr = await findMergeRequestById(deps.db, mergeRequestId);
  if (!mr) return;
  const latest = await latestDiffOf(deps.db, mr);
  if (!latest?.head_commit_sha || !latest.base_commit_sha || !latest.start_commit_sha) return;
  const target = await fullProject(deps.db, Number(mr.target_project_id));
  const repoPath = target ? await readRepository(deps, target) : null;
  if (!target || !repoPath) return;
  const { live, stale } = await pendingThreads(deps, mr, latest);
  if (stale.length) {
    await deps.db.updateTable('notes').set({ traced_to_diff_id: Number(latest.id) }).where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', Number(mr.id)).where('discussion_id', 'in', stale).execute();
  }
  const context: Context = { deps, mr, latest, actorId, resolveOutdated: Number(target.resolve_outdated_diff_discussions) === 1, webUrl: mergeRequestWebUrl(deps.config.baseUrl, target, mr.iid), repoPath };
  const next = refsOf(latest);
  const read = (from: string, to: string, paths: string[]) => fileDiffsBetween(repoPath, from, to, paths);
  // One set of diffs per version the threads come from (nearly always one).
  for (const fromId of new Set(live.map((thread) => Number(thread.from.id)))) {
    const threads = live.filter((thread) => Number(thread.from.id) === fromId);
    const diffs = await tracerDiffs(read, refsOf(threads[0].from), next, tracedPaths(threads.map((thread) => thread.position)));
    for (const thread of threads) await applyTrace(context, thread, tracePosition(thread.position, next, diffs), diffs.cd);
  }
}

export function traceDiffThreadsJob(deps: Deps, payload: { mergeRequestId: number; actorId: number | null }): Promise<void> {
  return traceDiffThreads(deps, Number(payload.mergeRequestId), payload.actorId === null || payload.actorId === undefined ? null : Number(payload.actorId));
}
