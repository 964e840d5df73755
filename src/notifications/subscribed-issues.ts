// isSubscribed for a page of issues or merge requests at once (the `subscribed` field of their
// entities): the same rule, an explicit row wins and otherwise a participant is subscribed, read in
// one statement for the whole page instead of one thread context per issue or merge request.
import type { Deps } from '../platform/deps.js';
import { containsPattern } from '../platform/db/like.js';
import { subscriptionFactsOf, type SubscriptionFactRow } from './subscribed-issues-queries.js';
import { mentionedUsernames } from '../markdown/api.js';
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
  // Explicit rows, and comments by the user or that may mention them (confirmed below by the mention rule).
  const facts = await deps.reads.all<SubscriptionFactRow>(subscriptionFactsOf(deps.dialect, type, user.id, ids, containsPattern(`@${username}`)));
  const explicit = new Map<number, boolean>();
  const notes: SubscriptionFactRow[] = [];
  for (const fact of facts) {
    if (fact.subscribed === null) notes.push(fact);
    else explicit.set(Number(fact.thread_id), Number(fact.subscribed) === 1);
  }
  const participating = new Set<number>();
  for (const thread of threads) {
    if (thread.participantIds.map(Number).includes(user.id) || mentionedUsernames(thread.description).includes(username)) participating.add(Number(thread.id));
  }
  for (const note of notes) {
    if (Number(note.author_id) === user.id || mentionedUsernames(note.body).includes(username)) participating.add(Number(note.thread_id));
  }
  for (const id of ids) if (explicit.get(id) ?? participating.has(id)) subscribed.add(id);
  return subscribed;
}

export function subscribedIssueIds(deps: Deps, user: { id: number; username: string }, issues: Array<Pick<IssueRow, 'id' | 'author_id' | 'description'> & { assigneeIds: number[] }>): Promise<Set<number>> {
  return subscribedIds(deps, user, 'Issue', issues.map((issue) => ({ id: Number(issue.id), description: issue.description, participantIds: [Number(issue.author_id), ...issue.assigneeIds] })));
}
