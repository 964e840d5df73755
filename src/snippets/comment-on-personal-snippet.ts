// A comment on a personal snippet (GitLab's Notes::CreateService for a PersonalSnippet, reached from
// its page only: GitLab has no notes API for personal snippets). The note has no project, so the notes
// machinery's createNote (project events, project hooks) is not used: the row is written here, the
// snippet touched, and `personal_snippet_note.created` published for the e-mail. No activity event is
// recorded: Kiln's events belong to a project (docs/snippets.md).
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { checkNoteBody, newDiscussionId, type NoteRow } from '../issues/api.js';
import type { SnippetRow } from './finder.js';

export async function commentOnPersonalSnippet(deps: Deps, authorId: number, snippet: SnippetRow, body: string): Promise<NoteRow> {
  checkNoteBody(body);
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const note = await trx
      .insertInto('notes')
      .values({ project_id: null, noteable_type: 'Snippet', noteable_id: Number(snippet.id), author_id: authorId, body, system: 0, discussion_id: newDiscussionId(), type: null, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.updateTable('snippets').set({ updated_at: now }).where('id', '=', snippet.id).execute();
    await deps.domainEvents.publish(trx, { kind: 'personal_snippet_note.created', actorId: authorId, noteId: Number(note.id), snippetId: Number(snippet.id) });
    return note;
  });
}
