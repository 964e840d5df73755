// What a notification about an issue needs to know, read when its job runs (events carry ids only):
// the issue, its project and the project's groups nearest first, assignees, and the people the
// thread involves (GitLab's Issue#participants: author, assignees, commenters, mentioned users).
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { IssuesTable, NotesTable } from '../platform/db/tables/issues.js';
import type { NamespaceRow, ProjectRow } from '../platform/auth/subjects.js';
import { mentionedUsernames } from './mentions.js';

export type IssueRow = Selectable<IssuesTable>;
export type NoteRow = Selectable<NotesTable>;

export interface IssueContext {
  issue: IssueRow;
  project: ProjectRow;
  namespace: NamespaceRow;
  /** The project's group and its ancestors, nearest first (empty for a personal project). */
  groupIds: number[];
  assigneeIds: number[];
  /** Author, assignees, authors of comments, users mentioned in the description or a comment. */
  participantIds: number[];
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

export async function loadIssueContext(deps: Deps, issueId: number): Promise<IssueContext | null> {
  const issue = await deps.db.selectFrom('issues').selectAll().where('id', '=', issueId).executeTakeFirst();
  if (!issue) return null;
  const project = await deps.db.selectFrom('projects').selectAll().where('id', '=', issue.project_id).executeTakeFirst();
  if (!project) return null;
  const namespace = await deps.db.selectFrom('namespaces').selectAll().where('id', '=', project.namespace_id).executeTakeFirstOrThrow();
  const [groupIds, assigneeIds, notes] = await Promise.all([
    groupChain(deps, namespace),
    assigneeIdsOf(deps, Number(issue.id)),
    deps.db.selectFrom('notes').select(['author_id', 'body']).where('noteable_type', '=', 'Issue').where('noteable_id', '=', issue.id).where('system', '=', 0).execute(),
  ]);
  const mentioned = await userIdsByUsername(deps, [...new Set([issue.description, ...notes.map((note) => note.body)].flatMap((text) => mentionedUsernames(text)))]);
  const participantIds = [...new Set([Number(issue.author_id), ...assigneeIds, ...notes.map((note) => Number(note.author_id)), ...mentioned])];
  return { issue, project, namespace, groupIds, assigneeIds, participantIds };
}
