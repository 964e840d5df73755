// isSubscribed for a page of issues at once (the `subscribed` field of issue lists): the same rule,
// an explicit row wins and otherwise a participant is subscribed, read in a fixed number of queries
// for the whole page instead of one issue context per issue.
import type { Deps } from '../platform/deps.js';
import { containsPattern, lowerLike } from '../platform/db/like.js';
import { mentionedUsernames } from './mentions.js';
import type { IssueRow } from './issue-context.js';

export async function subscribedIssueIds(deps: Deps, user: { id: number; username: string }, issues: Array<Pick<IssueRow, 'id' | 'author_id' | 'description'> & { assigneeIds: number[] }>): Promise<Set<number>> {
  const subscribed = new Set<number>();
  if (issues.length === 0) return subscribed;
  const ids = issues.map((issue) => Number(issue.id));
  const username = user.username.toLowerCase();
  const [rows, notes] = await Promise.all([
    deps.db.selectFrom('subscriptions').select(['subscribable_id', 'subscribed']).where('subscribable_type', '=', 'Issue').where('user_id', '=', user.id).where('subscribable_id', 'in', ids).execute(),
    // Comments by the user, or that may mention them (confirmed below by the mention rule).
    deps.db
      .selectFrom('notes')
      .select(['noteable_id', 'author_id', 'body'])
      .where('noteable_type', '=', 'Issue')
      .where('noteable_id', 'in', ids)
      .where('system', '=', 0)
      .where((eb) => eb.or([eb('author_id', '=', user.id), lowerLike('body', containsPattern(`@${username}`))]))
      .execute(),
  ]);
  const explicit = new Map(rows.map((row) => [Number(row.subscribable_id), row.subscribed === 1]));
  const participating = new Set<number>();
  for (const issue of issues) {
    if (Number(issue.author_id) === user.id || issue.assigneeIds.includes(user.id) || mentionedUsernames(issue.description).includes(username)) participating.add(Number(issue.id));
  }
  for (const note of notes) {
    if (Number(note.author_id) === user.id || mentionedUsernames(note.body).includes(username)) participating.add(Number(note.noteable_id));
  }
  for (const id of ids) if (explicit.get(id) ?? participating.has(id)) subscribed.add(id);
  return subscribed;
}
