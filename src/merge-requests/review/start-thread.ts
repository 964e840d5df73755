// A new thread on a merge request (POST …/discussions): a DiscussionNote, or with `position` a
// DiffNote on a line (or image, or file) of one of its diff versions, validated there, with its
// suggestions. A position on an older version is traced to the latest one at once, as GitLab's
// DiffNote#update_position does on create: current if its line is unchanged, outdated otherwise.
// With `commit_id` the position is on that commit of the merge request (parent → commit).
import type { Deps } from '../../platform/deps.js';
import { inTransaction, type Executor } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { ParamError } from '../../platform/errors.js';
import { checkNoteBody, createNote, type NoteRow } from '../../issues/api.js';
import { findCommit, revList } from '../../repositories/api.js';
import type { MergeRequestDiffRow, MergeRequestRow } from '../rows.js';
import { fullProject, latestDiffOf } from '../finder.js';
import { readRepository } from '../mr-repository.js';
import { nestedParam, parsePosition, positionJson, type Position } from './position.js';
import { placePosition, type PlacedPosition, type VersionRefs } from './validate-position.js';
import { tracePosition, tracedPaths, tracerDiffs } from './trace-position.js';
import { fileDiffsBetween } from './file-diffs.js';
import { storeSuggestions, suggestionsFor } from './suggestions/new-suggestions.js';
import type { MergeRequestNoteable } from './merge-request-noteable-type.js';

const COMMIT = /^[0-9a-f]{40}$/;

export function versionsOf(deps: Deps, mr: Pick<MergeRequestRow, 'id'>): Promise<MergeRequestDiffRow[]> {
  return deps.db.selectFrom('merge_request_diffs').selectAll().where('merge_request_id', '=', Number(mr.id)).orderBy('id', 'desc').limit(1000).execute();
}

/** The diff of one of the merge request's commits (parent → commit), for a note with `commit_id`. */
async function commitRefs(repoPath: string, latest: MergeRequestDiffRow | null, commitId: string): Promise<VersionRefs> {
  if (!COMMIT.test(commitId) || !latest?.head_commit_sha || !latest.base_commit_sha) throw new ParamError('commit_id is invalid');
  const commits = await revList(repoPath, { revisions: [latest.head_commit_sha, `^${latest.base_commit_sha}`], maxCount: 10_000 });
  const commit = commits.includes(commitId) ? await findCommit(repoPath, commitId) : null;
  if (!commit || commit.parents.length === 0) throw new ParamError('commit_id does not have a valid value');
  return { id: -1, base_commit_sha: commit.parents[0], start_commit_sha: commit.parents[0], head_commit_sha: commit.id };
}

/** Where the note shows now: traced forward from an older version to the latest, unless outdated there. */
async function currentPosition(repoPath: string, placed: Position, version: VersionRefs, latest: MergeRequestDiffRow | null): Promise<{ position: Position; tracedTo: number | null; changePosition?: Position | null }> {
  if (version.id < 0 || !latest || version.id === Number(latest.id)) return { position: placed, tracedTo: version.id < 0 ? null : version.id };
  const next = { base: latest.base_commit_sha!, start: latest.start_commit_sha!, head: latest.head_commit_sha! };
  const old = { base: placed.base_sha, start: placed.start_sha, head: placed.head_sha };
  const diffs = await tracerDiffs((from, to, paths) => fileDiffsBetween(repoPath, from, to, paths), old, next, tracedPaths([placed]));
  const traced = tracePosition(placed, next, diffs);
  if (traced.outdated || !traced.position) return { position: placed, tracedTo: Number(latest.id), changePosition: traced.position };
  return { position: traced.position, tracedTo: Number(latest.id) };
}

/** A requested `position` (with `commit_id`, on that commit) placed in one of the merge request's diffs, or refused as GitLab refuses the note. */
export async function placeThread(deps: Deps, noteable: MergeRequestNoteable, raw: unknown, commitId: string | null): Promise<{ repoPath: string; placed: PlacedPosition; latest: MergeRequestDiffRow | null }> {
  const requested = parsePosition(raw);
  const target = await fullProject(deps.db, noteable.projectId);
  const repoPath = target ? await readRepository(deps, target) : null;
  if (!repoPath) throw new ParamError('position is invalid');
  const [versions, latest] = await Promise.all([versionsOf(deps, noteable.mr), latestDiffOf(deps.db, noteable.mr)]);
  const candidates: VersionRefs[] = commitId ? [await commitRefs(repoPath, latest, commitId)] : versions;
  return { repoPath, placed: await placePosition(repoPath, candidates, requested), latest };
}

/** A diff thread ready to be stored: everything read from git done before any transaction. */
export interface PreparedDiffThread {
  body: string;
  commitId: string | null;
  current: Awaited<ReturnType<typeof currentPosition>>;
  placed: PlacedPosition;
  lineCode: string | null;
  suggestions: Awaited<ReturnType<typeof suggestionsFor>>;
}

export async function prepareDiffThread(deps: Deps, noteable: MergeRequestNoteable, body: string, raw: unknown, commitId: string | null): Promise<PreparedDiffThread> {
  checkNoteBody(body);
  const { repoPath, placed, latest } = await placeThread(deps, noteable, raw, commitId);
  const current = await currentPosition(repoPath, placed.position, placed.version, latest);
  // A traced note's line code is the one of its line in the latest version.
  const lineCode = current.position === placed.position ? placed.lineCode : (await placePosition(repoPath, latest ? [latest] : [], current.position)).lineCode;
  const suggestions = await suggestionsFor(repoPath, current.position, body);
  return { body, commitId, current, placed, lineCode, suggestions };
}

/** The DiffNote of a prepared thread, with its suggestions, in the caller's transaction. */
export async function storeDiffThread(deps: Deps, trx: Executor, authorId: number, noteable: MergeRequestNoteable, thread: PreparedDiffThread, createdAt?: number): Promise<NoteRow> {
  const { current, placed } = thread;
  const note = await createNote(deps, authorId, noteable, thread.body, {
    createdAt,
    diff: { position: positionJson(current.position), originalPosition: positionJson(placed.position), lineCode: thread.lineCode, commitId: thread.commitId, tracedToDiffId: current.tracedTo },
  }, trx);
  await storeSuggestions(trx, Number(note.id), thread.suggestions, deps.clock.now());
  if (current.changePosition) await trx.updateTable('notes').set({ change_position: positionJson(current.changePosition) }).where('id', '=', Number(note.id)).execute();
  return note;
}

export async function startMergeRequestThread(deps: Deps, actor: AuthUser, noteable: MergeRequestNoteable, body: string, input: Record<string, unknown>, createdAt: number | undefined): Promise<NoteRow> {
  const raw = nestedParam(input, 'position');
  if (raw === undefined || raw === null) return createNote(deps, actor.id, noteable, body, { thread: true, createdAt });
  const commitId = typeof input.commit_id === 'string' && input.commit_id !== '' ? input.commit_id : null;
  const thread = await prepareDiffThread(deps, noteable, body, raw, commitId);
  return inTransaction(deps.db, (trx) => storeDiffThread(deps, trx, actor.id, noteable, thread, createdAt));
}
