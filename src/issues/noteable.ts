// What a note is on (GitLab's Noteable): an issue, a merge request, a commit or a project snippet. The
// notes machinery of this folder (creating, replying, finding, presenting, the notes and discussions
// routes) works on any noteable; a kind of noteable says where it lives and what differs
// (noteable-kind.ts). Notes are rows of `notes` keyed by (noteable_type, noteable_id).
import type { Executor } from '../platform/db/database.js';
import type { NoteType } from '../platform/db/tables/issues.js';

export type NoteableType = 'Issue' | 'MergeRequest' | 'Commit' | 'Snippet';

export interface Noteable {
  type: NoteableType;
  id: number;
  projectId: number;
  /** A commit has no iid: 0 here, presented as null. */
  iid: number;
  /** A commit's full sha, kept on its notes' commit_id as GitLab does. */
  commitId?: string;
}

/** Where each kind's row is, to move its updated_at when it is commented on (GitLab touches the noteable). */
const TABLES = { Issue: 'issues', MergeRequest: 'merge_requests', Commit: null, Snippet: 'snippets' } as const;

export async function touchNoteable(trx: Executor, noteable: Noteable, now: number): Promise<void> {
  const table = TABLES[noteable.type];
  // A commit is immutable: nothing of it moves when it is commented on.
  if (table !== null) await trx.updateTable(table).set({ updated_at: now }).where('id', '=', noteable.id).execute();
}

/**
 * The target type of a comment's activity event: the note's class, as GitLab records it (`Note`,
 * `DiscussionNote`, `DiffNote`), so a feed tells a line comment from a reply.
 */
export function noteEventTargetType(type: NoteType): 'Note' | 'DiscussionNote' | 'DiffNote' {
  return type ?? 'Note';
}

/** Resolvable notes (GitLab's ResolvableNote): non-system notes of a thread, DiscussionNote or DiffNote, on a merge request. */
export function isResolvable(note: { type: NoteType; system: number | boolean; noteable_type: string }): boolean {
  return note.noteable_type === 'MergeRequest' && note.type !== null && !(Number(note.system) === 1 || note.system === true);
}
