// The raw statements of the issue system notes (system-notes.ts): raw because a domain event's
// listener gets the producer's transaction as a `Tx`, which may be a group-commit work.
import { q, type Statement } from '../platform/db/statements.js';

export interface NewSystemNote {
  projectId: number;
  issueId: number;
  authorId: number;
  body: string;
  discussionId: string;
  now: number;
}

export function insertSystemNote(note: NewSystemNote): Statement {
  return q`
    insert into notes (project_id, noteable_type, noteable_id, author_id, body, system, discussion_id, created_at, updated_at)
    values (${note.projectId}, 'Issue', ${note.issueId}, ${note.authorId}, ${note.body}, 1, ${note.discussionId}, ${note.now}, ${note.now})
    returning id`;
}

export function labelTitle(id: number): Statement {
  return q`select id, title from labels where id = ${id}`;
}

export function usernameOf(id: number): Statement {
  return q`select username from users where id = ${id}`;
}

export function milestoneTitle(id: number): Statement {
  return q`select id, title from milestones where id = ${id}`;
}

export function assigneeIdsOf(issueId: number): Statement {
  return q`select user_id from issue_assignees where issue_id = ${issueId} order by user_id`;
}

export function noteBody(noteId: number): Statement {
  return q`select body from notes where id = ${noteId}`;
}
