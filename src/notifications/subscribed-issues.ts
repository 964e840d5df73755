// isSubscribed for a page of issues or merge requests at once (the `subscribed` field of their
// entities): the same rule, an explicit row wins and otherwise a participant is subscribed, read in
// one statement for the whole page instead of one thread context per issue or merge request. Issues
// arrive with their explicit row and their count of comments (read with their links): comments are
// read only for an issue that has some and that neither its row nor its people decide, so a page of
// issues without comments costs no statement here.
import type { Deps } from '../platform/deps.js';
import { containsPattern } from '../platform/db/like.js';
import { subscriptionCommentsOf, subscriptionFactsOf, type SubscriptionFactRow } from './subscribed-issues-queries.js';
import { mentionedUsernames } from '../markdown/api.js';
import type { IssueRow } from './issue-context.js';

/** A thread with the people its rows already name (author, assignees, reviewers). */
export interface ThreadParticipants {
  id: number;
  description: string | null;
  participantIds: number[];
}

/** Whether `user` takes part in `thread` through its own rows: named by it, or mentioned in its description. */
function namedIn(thread: ThreadParticipants, user: { id: number }, username: string): boolean {
  return thread.participantIds.map(Number).includes(user.id) || mentionedUsernames(thread.description).includes(username);
}

/** The threads of `notes` (candidate comments) that the user wrote or that mention them. */
function commentedIn(notes: readonly SubscriptionFactRow[], user: { id: number }, username: string, into: Set<number>): void {
  for (const note of notes) {
    if (Number(note.author_id) === user.id || mentionedUsernames(note.body).includes(username)) into.add(Number(note.thread_id));
  }
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
  for (const thread of threads) if (namedIn(thread, user, username)) participating.add(Number(thread.id));
  commentedIn(notes, user, username, participating);
  for (const id of ids) if (explicit.get(id) ?? participating.has(id)) subscribed.add(id);
  return subscribed;
}

/** An issue as its links read it: the viewer's explicit row (null: none) and how many comments it has. */
export type IssueSubscriptionFacts = Pick<IssueRow, 'id' | 'author_id' | 'description'> & { assigneeIds: number[]; explicit: boolean | null; userNotes: number };

export async function subscribedIssueIds(deps: Deps, user: { id: number; username: string }, issues: IssueSubscriptionFacts[]): Promise<Set<number>> {
  const subscribed = new Set<number>();
  const username = user.username.toLowerCase();
  const undecided: number[] = [];
  for (const issue of issues) {
    const id = Number(issue.id);
    if (issue.explicit !== null) {
      if (issue.explicit) subscribed.add(id);
    } else if (namedIn({ id, description: issue.description, participantIds: [Number(issue.author_id), ...issue.assigneeIds] }, user, username)) {
      subscribed.add(id);
    } else if (issue.userNotes > 0) {
      undecided.push(id);
    }
  }
  if (undecided.length) commentedIn(await deps.reads.all<SubscriptionFactRow>(subscriptionCommentsOf(deps.dialect, 'Issue', user.id, undecided, containsPattern(`@${username}`))), user, username, subscribed);
  return subscribed;
}
