// isSubscribed for a page of issues or merge requests at once (the `subscribed` field of their
// entities): the same rule, an explicit row wins and otherwise a participant is subscribed, read in
// two statements for the whole page instead of one thread context per issue or merge request.
import type { Deps } from '../platform/deps.js';
import { containsPattern, lowerLike } from '../platform/db/like.js';
import { mentionedUsernames } from './mentions.js';
import type { IssueRow } from './issue-context.js';

/** A thread with the people its rows already name (author, assignees, reviewers). */
export interface ThreadParticipants {
  id: number;
  description: string | null;
  participantIds: number[];
}

export async function subscribedIds(deps: Deps, user: { id: number; username: string }, type: 'Issue' | 'MergeRequest', threads: ThreadParticipants[]): Promise<Set<number>> {
  const subscribed = new Set<number>();
  if (threads.length === 0) return subscribed;
  const ids = threads.map((thread) => Number(thread.id));
  const username = user.username.toLowerCase();
  const [rows, notes] = await Promise.all([
    deps.db.selectFrom('subscriptions').select(['subscribable_id', 'subscribed']).where('subscribable_type', '=', type).where('user_id', '=', user.id).where('subscribable_id', 'in', ids).execute(),
    // Comments by the user, or that may mention them (confirmed below by the mention rule).
    deps.db
      .selectFrom('notes')
      .select(['noteable_id', 'author_id', 'body'])
      .where('noteable_type', '=', type)
      .where('noteable_id', 'in', ids)
      .where('system', '=', 0)
      .where((eb) => eb.or([eb('author_id', '=', user.id), lowerLike('body', containsPattern(`@${username}`))]))
      .execute(),
  ]);
  const explicit = new Map(rows.map((row) => [Number(row.subscribable_id), row.subscribed === 1]));
  const participating = new Set<number>();
  for (const thread of threads) {
    if (thread.participantIds.map(Number).includes(user.id) || mentionedUsernames(thread.description).includes(username)) participating.add(Number(thread.id));
  }
  for (const note of notes) {
    if (Number(note.author_id) === user.id || mentionedUsernames(note.body).includes(username)) participating.add(Number(note.noteable_id));
  }
  for (const id of ids) if (explicit.get(id) ?? participating.has(id)) subscribed.add(id);
  return subscribed;
}

export function subscribedIssueIds(deps: Deps, user: { id: number; username: string }, issues: Array<Pick<IssueRow, 'id' | 'author_id' | 'description'> & { assigneeIds: number[] }>): Promise<Set<number>> {
  return subscribedIds(deps, user, 'Issue', issues.map((issue) => ({ id: Number(issue.id), description: issue.description, participantIds: [Number(issue.author_id), ...issue.assigneeIds] })));
}
