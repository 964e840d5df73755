// What a notification about an issue needs to know, read when its job runs (events carry ids only):
// the issue, its project and the project's groups nearest first, assignees, and the people the
// thread involves (GitLab's Issue#participants: author, assignees, note authors, mentioned users).
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { IssuesTable, NotesTable } from '../platform/db/tables/issues.js';
import type { NamespaceRow, ProjectRow } from '../platform/auth/subjects.js';
import { canReadIssue, type PolicySubject } from '../platform/auth/policies/index.js';
import { mentionedUsernames } from '../markdown/api.js';

export type IssueRow = Selectable<IssuesTable>;
export type NoteRow = Selectable<NotesTable>;

/** What recipients are built from, for an issue or a merge request (merge-request-context.ts). */
export interface ThreadContext {
  /** The subscribable: subscriptions name it by type and id (a snippet has none: GitLab's are not Subscribable). */
  type: 'Issue' | 'MergeRequest' | 'Snippet';
  id: number;
  /** The text whose mentions a new issue or merge request mails. */
  description: string | null;
  project: ProjectRow;
  namespace: NamespaceRow;
  /** The project's group and its ancestors, nearest first (empty for a personal project). */
  groupIds: number[];
  assigneeIds: number[];
  /** Merge requests only (none for an issue). */
  reviewerIds: number[];
  /** Author, assignees (and reviewers), authors of notes (system notes too), users mentioned in the description or a note. */
  participantIds: number[];
  /** The labels it carries (their subscribers hear of a new issue or merge request). */
  labelIds: number[];
  /** read_issue or read_merge_request on this one (confidentiality included). */
  readable(subject: PolicySubject): boolean;
}

export interface IssueContext extends ThreadContext {
  issue: IssueRow;
}

/** Ancestor groups of a namespace, nearest first; a personal namespace has none. */
export async function groupChain(deps: Deps, namespace: NamespaceRow): Promise<number[]> {
  const chain: number[] = [];
  let current: Pick<NamespaceRow, 'id' | 'kind' | 'parent_id'> | undefined = namespace;
  while (current && current.kind === 'group' && chain.length < 32) {
    chain.push(Number(current.id));
    if (current.parent_id === null) break;
    current = await deps.db.selectFrom('namespaces').select(['id', 'kind', 'parent_id']).where('id', '=', current.parent_id).executeTakeFirst();
  }
  return chain;
}

export async function userIdsByUsername(deps: Deps, names: string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await deps.db.selectFrom('users').select('id').where('username_lower', 'in', names).execute();
  return rows.map((row) => Number(row.id));
}

export async function assigneeIdsOf(deps: Deps, issueId: number): Promise<number[]> {
  const rows = await deps.db.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', issueId).execute();
  return rows.map((row) => Number(row.user_id));
}

/**
 * The authors of an issue's or merge request's notes and the users its description or notes mention.
 * System notes count, as in the participants API (issues' participants.ts): GitLab's recipient builder
 * takes `target.participants`, whose walk reads system notes like comments, so whoever only changed a
 * label takes part and "unassigned @bob" keeps bob. Unlike the API, no note is checked against a
 * reader: recipients are asked for the thread itself afterwards (`readable`).
 */
export async function discussionPeople(deps: Deps, type: ThreadContext['type'], id: number, description: string | null): Promise<number[]> {
  const notes = await deps.db.selectFrom('notes').select(['author_id', 'body']).where('noteable_type', '=', type).where('noteable_id', '=', id).execute();
  const mentioned = await userIdsByUsername(deps, [...new Set([description, ...notes.map((note) => note.body)].flatMap((text) => mentionedUsernames(text)))]);
  return [...notes.map((note) => Number(note.author_id)), ...mentioned];
}

export async function loadIssueContext(deps: Deps, issueId: number): Promise<IssueContext | null> {
  const issue = await deps.db.selectFrom('issues').selectAll().where('id', '=', issueId).executeTakeFirst();
  if (!issue) return null;
  const project = await deps.db.selectFrom('projects').selectAll().where('id', '=', issue.project_id).executeTakeFirst();
  if (!project) return null;
  const namespace = await deps.db.selectFrom('namespaces').selectAll().where('id', '=', project.namespace_id).executeTakeFirstOrThrow();
  const [groupIds, assigneeIds, discussion, labels] = await Promise.all([
    groupChain(deps, namespace),
    assigneeIdsOf(deps, Number(issue.id)),
    discussionPeople(deps, 'Issue', Number(issue.id), issue.description),
    deps.db.selectFrom('label_links').select('label_id').where('issue_id', '=', Number(issue.id)).execute(),
  ]);
  const labelIds = labels.map((row) => Number(row.label_id));
  const participantIds = [...new Set([Number(issue.author_id), ...assigneeIds, ...discussion])];
  const readable = (subject: PolicySubject) => canReadIssue(subject, { ...issue, assigneeIds });
  return { type: 'Issue', id: Number(issue.id), description: issue.description, issue, project, namespace, groupIds, assigneeIds, reviewerIds: [], participantIds, labelIds, readable };
}
