// Which diff threads of a merge request are current: a DiffNote is active while its position's SHAs
// are the merge request's latest version's (DiffNote#active?); after a push changed its line it keeps
// its old position and is outdated. The merge request pages render threads under diff lines from
// diffThreadsOf: the active ones by line code in the latest version, the outdated ones apart.
import type { Deps } from '../../platform/deps.js';
import type { NoteRow } from '../../issues/api.js';
import type { MergeRequestDiffRow, MergeRequestRow } from '../rows.js';
import { latestDiffOf } from '../finder.js';
import { readPosition, type Position } from './position.js';

export function isActive(note: Pick<NoteRow, 'type' | 'position'>, latest: Pick<MergeRequestDiffRow, 'base_commit_sha' | 'start_commit_sha' | 'head_commit_sha'> | null): boolean {
  if (note.type !== 'DiffNote' || !latest) return false;
  const position = readPosition(note.position);
  return !!position && position.head_sha === latest.head_commit_sha && position.base_sha === latest.base_commit_sha && position.start_sha === latest.start_commit_sha;
}

export interface DiffThread {
  discussionId: string;
  notes: NoteRow[];
  position: Position;
  lineCode: string | null;
  active: boolean;
  resolved: boolean;
}

/** At most this many diff threads are read for one merge request's pages. */
export const DIFF_THREADS_LIMIT = 1000;

/** The merge request's diff threads, oldest first, each with its notes and whether it is current. */
export async function diffThreadsOf(deps: Deps, mr: MergeRequestRow): Promise<DiffThread[]> {
  const [latest, notes] = await Promise.all([
    latestDiffOf(deps.db, mr),
    deps.db.selectFrom('notes').selectAll().where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', Number(mr.id)).where('type', '=', 'DiffNote').orderBy('id').limit(DIFF_THREADS_LIMIT * 10).execute(),
  ]);
  const threads = new Map<string, DiffThread>();
  for (const note of notes) {
    const id = note.discussion_id!;
    const thread = threads.get(id);
    if (thread) {
      thread.notes.push(note);
      continue;
    }
    if (threads.size >= DIFF_THREADS_LIMIT) continue;
    const position = readPosition(note.position);
    if (!position) continue;
    threads.set(id, { discussionId: id, notes: [note], position, lineCode: note.line_code, active: isActive(note, latest), resolved: false });
  }
  for (const thread of threads.values()) {
    const resolvable = thread.notes.filter((note) => Number(note.system) === 0);
    thread.resolved = resolvable.length > 0 && resolvable.every((note) => note.resolved_at !== null);
  }
  return [...threads.values()];
}
