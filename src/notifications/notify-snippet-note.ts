// A comment on a project snippet mails as GitLab's NotificationService#new_note does for a snippet
// (NotificationRecipients::Builder::NewNote, then Emails::Notes#note_snippet_email): the thread's
// participants, users the comment mentions, the project's watchers and custom levels with new_note on,
// each asked notifiable? like an issue comment's recipients (recipients.ts), never the commenter. The
// message answers the snippet's thread: subject `<project> | <title> ($<id>)`, the comment quoted.
// As the issue job: a run that died after queueing finds its messages and stops.
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { composedBy, queueEmails } from '../email/api.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { readApplicationSettings } from '../application-settings/api.js';
import { snippetWebUrl } from '../snippets/api.js';
import { issueRecipients } from './recipients.js';
import { loadSnippetContext } from './snippet-context.js';
import { mailHost, threadEmail } from './thread-email.js';

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
  const actor = payload.actorId === null ? undefined : await deps.db.selectFrom('users').select(['name']).where('id', '=', payload.actorId).executeTakeFirst();
  const bodyHtml = await renderGitlabMarkdown(deps, note.body);
  const { email_author_in_body: authorInBody } = await readApplicationSettings(deps.db);
  const { snippet, project } = context;
  const host = mailHost(deps);
  const reference = `$${Number(snippet.id)}`;
  const messages = recipients.map((recipient) => threadEmail(deps, {
    project,
    reference,
    title: snippet.title,
    url: `${snippetWebUrl(deps.config.baseUrl, snippet, project.full_path)}#note_${Number(note.id)}`,
    // GitLab's message_id of the snippet (its route key, project_snippet) roots the thread.
    root: `project_snippet_${Number(snippet.id)}@${host}`,
    messageId: `note_${Number(note.id)}@${host}`,
    actorName: actor?.name ?? null,
    modelHeaders: { 'X-GitLab-ProjectSnippet-ID': String(snippet.id) },
    headline: `${actor?.name ?? 'Kiln'} commented on snippet ${reference}:`,
    details: [],
    markdown: note.body,
    quotedAuthor: authorInBody ? (actor?.name ?? null) : null,
    bodyHtml,
    // Snippets take no subscriptions (GitLab's Snippet is not Subscribable): no thread to leave.
    unsubscribe: null,
  }, recipient));
  await inTransaction(deps.db, (trx) => queueEmails(deps, trx, messages, job.id));
  deps.pokeWorker();
}
