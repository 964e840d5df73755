// A comment on a personal snippet mails as GitLab's NotificationService#new_note does for a note
// without a project (NotificationRecipients::Builder::NewNote, then Emails::Notes#note_personal_snippet_email):
// the thread's participants (the snippet's author, the comments' authors, the users its description
// and comments mention) and the users the comment mentions, each by their global setting (there is no
// project or group whose setting could apply, nor project watchers), never the commenter, and only
// those who read the snippet. The subject names no project: `<title> ($<id>)` (snippet-note-email.ts).
// As the project snippet's job: a run that died after queueing finds its messages and stops.
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { composedBy } from '../email/api.js';
import { toAuthUser } from '../accounts/api.js';
import { canReadSnippet, type SnippetRow } from '../snippets/api.js';
import { addressesOf, deliverable, settingsFor, type Recipient } from './recipients.js';
import { notifiable, type RecipientType } from './recipient-rules.js';
import { discussionPeople, userIdsByUsername, type NoteRow } from './issue-context.js';
import { mentionedUsernames } from '../markdown/api.js';
import { mailSnippetNote } from './snippet-note-email.js';

export const JOB_NOTIFY_PERSONAL_SNIPPET_NOTE = 'notifications.personal_snippet_note';

export interface PersonalSnippetNoteNotificationPayload {
  snippetId: number;
  noteId: number;
  actorId: number | null;
}

async function recipientsOf(deps: Deps, snippet: SnippetRow, note: NoteRow, actorId: number | null): Promise<Recipient[]> {
  const participants = [Number(snippet.author_id), ...(await discussionPeople(deps, 'Snippet', Number(snippet.id), snippet.description))];
  const mentioned = await userIdsByUsername(deps, mentionedUsernames(note.body));
  // A mention outranks participation: its reason is the one shown.
  const candidates: Array<{ userId: number; type: RecipientType }> = [
    ...mentioned.map((userId) => ({ userId, type: 'mention' as const })),
    ...participants.map((userId) => ({ userId, type: 'participating' as const })),
  ];
  const ids = [...new Set(candidates.map((candidate) => candidate.userId))];
  if (ids.length === 0) return [];
  const [settings, users] = await Promise.all([settingsFor(deps, ids, { project: null, groupIds: [] }), deps.db.selectFrom('users').selectAll().where('id', 'in', ids).execute()]);
  const addresses = await addressesOf(deps, users);
  const recipients: Recipient[] = [];
  for (const user of users) {
    const userId = Number(user.id);
    const hasAccess = user.state === 'active' && user.user_type === 'human' && deliverable(addresses.get(userId)!) && canReadSnippet(toAuthUser(user), snippet, null);
    const ways = candidates.filter((candidate) => candidate.userId === userId && notifiable({ type: candidate.type, setting: settings.get(userId)!, isActor: userId === actorId, hasAccess, unsubscribed: false }, 'new_note'));
    if (ways.length > 0) recipients.push({ user, address: addresses.get(userId)!, reason: ways[0].type === 'mention' ? 'mentioned' : null });
  }
  return recipients;
}

export async function notifyPersonalSnippetNote(deps: Deps, payload: PersonalSnippetNoteNotificationPayload, job: ClaimedJob): Promise<void> {
  if (await composedBy(deps, job.id)) return;
  const snippet = await deps.db.selectFrom('snippets').selectAll().where('id', '=', payload.snippetId).where('project_id', 'is', null).executeTakeFirst();
  const note = await deps.db.selectFrom('notes').selectAll().where('id', '=', payload.noteId).executeTakeFirst();
  if (!snippet || !note || note.system === 1) return;
  const recipients = await recipientsOf(deps, snippet, note, payload.actorId);
  if (recipients.length === 0) return;
  await mailSnippetNote(deps, job, { snippet, project: null, note, actorId: payload.actorId, recipients });
}
