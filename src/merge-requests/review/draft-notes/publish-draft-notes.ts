// Publishing a review (GitLab's DraftNotes::PublishService): each draft becomes a note as if written
// now — a reply in its thread (resolving the thread when the draft asked to and the author may, else
// reopening it), a diff thread at its position, or a new thread — and the drafts are gone. Every note
// publishes `note.created` (one Note Hook each, as GitLab's). Publishing them all (`bulk_publish`)
// also marks the author's review as `reviewed` when they are a reviewer.
//
// What git must answer (a diff draft's place in the latest version, its suggestions) is read first;
// then one transaction claims the drafts by deleting them and writes the notes, so two publishes
// racing each other publish every draft once.
import type { Deps } from '../../../platform/deps.js';
import { inTransaction, type Executor } from '../../../platform/db/database.js';
import type { ProjectAccess } from '../../../platform/auth/subjects.js';
import { canResolveThread } from '../../../platform/auth/policies/index.js';
import { createNote, replyToDiscussion, type NoteRow } from '../../../issues/api.js';
import { lockMergeRequest, noteAllResolved, setThreadResolved } from '../resolve-discussion.js';
import { prepareDiffThread, storeDiffThread, type PreparedDiffThread } from '../start-thread.js';
import type { MergeRequestNoteable } from '../merge-request-noteable-type.js';
import type { DraftNoteRow } from './draft-notes.js';

async function publishOne(deps: Deps, trx: Executor, access: ProjectAccess, authorId: number, mr: MergeRequestNoteable, draft: DraftNoteRow, prepared: PreparedDiffThread | undefined): Promise<NoteRow> {
  if (prepared) return storeDiffThread(deps, trx, authorId, mr, prepared);
  if (!draft.discussion_id) return createNote(deps, authorId, mr, draft.note, { thread: true }, trx);
  const note = await replyToDiscussion(deps, authorId, mr, draft.discussion_id, draft.note, undefined, trx);
  const now = deps.clock.now();
  if (Number(draft.resolve_discussion) === 1 && canResolveThread(access, mr.mr)) {
    if (await setThreadResolved(trx, mr.mr, draft.discussion_id, { id: authorId }, now)) await noteAllResolved(trx, mr.mr, authorId, now);
  } else {
    await setThreadResolved(trx, mr.mr, draft.discussion_id, null, now);
  }
  return note;
}

/** Publishes the given drafts (in their order); those another request published meanwhile are skipped. */
export async function publishDrafts(deps: Deps, access: ProjectAccess, authorId: number, mr: MergeRequestNoteable, drafts: DraftNoteRow[], review: boolean): Promise<NoteRow[]> {
  const prepared = new Map<number, PreparedDiffThread>();
  for (const draft of drafts) {
    if (draft.position && !draft.discussion_id) prepared.set(Number(draft.id), await prepareDiffThread(deps, mr, draft.note, JSON.parse(draft.position), draft.commit_id));
  }
  return inTransaction(deps.db, async (trx) => {
    await lockMergeRequest(trx, mr.mr);
    if (drafts.length === 0) return [];
    const claimed = new Set((await trx.deleteFrom('draft_notes').where('id', 'in', drafts.map((draft) => Number(draft.id))).returning('id').execute()).map((row) => Number(row.id)));
    const notes: NoteRow[] = [];
    for (const draft of drafts) {
      if (claimed.has(Number(draft.id))) notes.push(await publishOne(deps, trx, access, authorId, mr, draft, prepared.get(Number(draft.id))));
    }
    if (review && notes.length > 0) {
      await trx.updateTable('merge_request_reviewers').set({ state: 'reviewed' }).where('merge_request_id', '=', mr.id).where('user_id', '=', authorId).execute();
    }
    return notes;
  });
}
