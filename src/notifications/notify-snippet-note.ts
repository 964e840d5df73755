// A comment on a project snippet mails as GitLab's NotificationService#new_note does for a snippet
// (NotificationRecipients::Builder::NewNote, then Emails::Notes#note_snippet_email): the thread's
// participants, users the comment mentions, the project's watchers and custom levels with new_note on,
// each asked notifiable? like an issue comment's recipients (recipients.ts), never the commenter. The
// message answers the snippet's thread: subject `<project> | <title> ($<id>)`, the comment quoted
// (snippet-note-email.ts).
// As the issue job: a run that died after queueing finds its messages and stops.
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { composedBy } from '../email/api.js';
import { issueRecipients } from './recipients.js';
import { loadSnippetContext } from './snippet-context.js';
import { mailSnippetNote } from './snippet-note-email.js';

export const JOB_NOTIFY_SNIPPET_NOTE = 'notifications.snippet_note';

export interface SnippetNoteNotificationPayload {
  snippetId: number;
  noteId: number;
  actorId: number | null;
}

export async function notifySnippetNote(deps: Deps, payload: SnippetNoteNotificationPayload, job: ClaimedJob): Promise<void> {
  if (await composedBy(deps, job.id)) return;
  const context = await loadSnippetContext(deps, payload.snippetId);
  const note = await deps.db.selectFrom('notes').selectAll().where('id', '=', payload.noteId).executeTakeFirst();
  if (!context || !note || note.system === 1) return;
  const recipients = await issueRecipients(deps, { action: 'new_note', actorId: payload.actorId, context, note });
  if (recipients.length === 0) return;
  await mailSnippetNote(deps, job, { snippet: context.snippet, project: context.project, note, actorId: payload.actorId, recipients });
}
