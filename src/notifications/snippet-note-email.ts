// The message of a snippet's new comment, personal or of a project, as GitLab's Emails::Notes shapes
// note_snippet_email and note_personal_snippet_email: an answer in the snippet's thread (rooted at its
// route key, `project_snippet_<id>` or `personal_snippet_<id>`), the comment quoted, no unsubscribe
// link (GitLab's Snippet is not Subscribable). Queued with the job that composed it.
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { queueEmails } from '../email/api.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { readApplicationSettings } from '../application-settings/api.js';
import { snippetWebUrl, type SnippetRow } from '../snippets/api.js';
import type { NoteRow } from './issue-context.js';
import type { Recipient } from './recipients.js';
import { mailHost, threadEmail, type ThreadMessage } from './thread-email.js';

export interface SnippetNoteMail {
  snippet: SnippetRow;
  /** The snippet's project; null for a personal snippet. */
  project: (NonNullable<ThreadMessage['project']>) | null;
  note: NoteRow;
  actorId: number | null;
  recipients: Recipient[];
}

export async function mailSnippetNote(deps: Deps, job: ClaimedJob, mail: SnippetNoteMail): Promise<void> {
  const { snippet, project, note } = mail;
  const actor = mail.actorId === null ? undefined : await deps.db.selectFrom('users').select(['name']).where('id', '=', mail.actorId).executeTakeFirst();
  const bodyHtml = await renderGitlabMarkdown(deps, note.body);
  const { email_author_in_body: authorInBody } = await readApplicationSettings(deps.db);
  const host = mailHost(deps);
  const reference = `$${Number(snippet.id)}`;
  const kind = project ? 'ProjectSnippet' : 'PersonalSnippet';
  const messages = mail.recipients.map((recipient) => threadEmail(deps, {
    project,
    reference,
    title: snippet.title,
    url: `${snippetWebUrl(deps.config.baseUrl, snippet, project?.full_path ?? null)}#note_${Number(note.id)}`,
    root: `${project ? 'project' : 'personal'}_snippet_${Number(snippet.id)}@${host}`,
    messageId: `note_${Number(note.id)}@${host}`,
    actorName: actor?.name ?? null,
    modelHeaders: { [`X-GitLab-${kind}-ID`]: String(snippet.id) },
    headline: `${actor?.name ?? 'Kiln'} commented on snippet ${reference}:`,
    details: [],
    markdown: note.body,
    quotedAuthor: authorInBody ? (actor?.name ?? null) : null,
    bodyHtml,
    unsubscribe: null,
  }, recipient));
  await inTransaction(deps.db, (trx) => queueEmails(deps, trx, messages, job.id));
  deps.pokeWorker();
}
