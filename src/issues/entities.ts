// Wire shapes of issues and notes (GitLab's Issue, IssueBasic and Note entities), fields listed
// explicitly. An issue's associations (users, labels, assignees, milestone, note count) are loaded
// for a whole page at once by present-issues.ts and handed in as IssueLinks.
import type { Selectable } from 'kysely';
import { isoTime } from '../platform/clock.js';
import type { IssuesTable, NotesTable } from '../platform/db/tables/issues.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { type UserRow, userBasic, projectWebUrl } from '../accounts/api.js';
import { labelBasicEntity, type IssueLabel } from '../labels/api.js';
import { isResolvable } from './noteable.js';
import { timeStatsEntity } from '../time-tracking/api.js';

export type IssueRow = Selectable<IssuesTable>;
export type NoteRow = Selectable<NotesTable>;
export type Users = Map<number, Pick<UserRow, 'id' | 'username' | 'name' | 'state' | 'avatar'>>;

/** What an issue entity shows besides the issue row. */
export interface IssueLinks {
  users: Users;
  labels?: IssueLabel[];
  assigneeIds?: number[];
  /** The milestone entity, already presented (it needs its parent's path). */
  milestone?: unknown;
  notesCount?: number;
  withLabelsDetails?: boolean;
  /**
   * Whether the caller is subscribed (the notifications feature answers, through issues/hooks.ts); left
   * out of the entity when not asked, as GitLab's listings leave it out (present-issues.ts).
   */
  subscribed?: boolean;
  /** Thumbs up and down awarded (award-emoji/award-emoji.ts voteCounts). */
  votes?: { upvotes: number; downvotes: number };
  /** Seconds spent in all (the sum of its timelogs). */
  timeSpent?: number;
}

export function issueEntity(baseUrl: string, issue: IssueRow, project: ProjectRow, links: IssueLinks) {
  const { users } = links;
  const author = users.get(Number(issue.author_id));
  const closedBy = issue.closed_by_id === null ? undefined : users.get(Number(issue.closed_by_id));
  const assignees = (links.assigneeIds ?? []).map((id) => users.get(id)).filter((user) => user !== undefined).map((user) => userBasic(baseUrl, user));
  const labels = links.labels ?? [];
  const webUrl = `${projectWebUrl(baseUrl, project.full_path)}/-/issues/${issue.iid}`;
  return {
    id: Number(issue.id),
    iid: issue.iid,
    project_id: Number(issue.project_id),
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: isoTime(issue.created_at),
    updated_at: isoTime(issue.updated_at),
    closed_at: isoTime(issue.closed_at),
    closed_by: closedBy ? userBasic(baseUrl, closedBy) : null,
    labels: links.withLabelsDetails ? labels.map(labelBasicEntity) : labels.map((label) => label.title),
    milestone: links.milestone ?? null,
    assignees,
    author: author ? userBasic(baseUrl, author) : null,
    type: issue.issue_type.toUpperCase(),
    assignee: assignees[0] ?? null,
    user_notes_count: links.notesCount ?? 0,
    // Undefined when not asked: JSON leaves the key out.
    subscribed: links.subscribed,
    merge_requests_count: 0,
    upvotes: links.votes?.upvotes ?? 0,
    downvotes: links.votes?.downvotes ?? 0,
    due_date: issue.due_date,
    confidential: Number(issue.confidential) === 1,
    discussion_locked: issue.discussion_locked === null ? null : Number(issue.discussion_locked) === 1,
    issue_type: issue.issue_type,
    web_url: webUrl,
    time_stats: timeStatsEntity(Number(issue.time_estimate ?? 0), links.timeSpent ?? 0),
    task_completion_status: { count: 0, completed_count: 0 },
    has_tasks: false,
    references: { short: `#${issue.iid}`, relative: `#${issue.iid}`, full: `${project.full_path}#${issue.iid}` },
    severity: 'UNKNOWN',
    moved_to_id: null,
    service_desk_reply_to: null,
    _links: {
      self: `${baseUrl}/api/v4/projects/${project.id}/issues/${issue.iid}`,
      notes: `${baseUrl}/api/v4/projects/${project.id}/issues/${issue.iid}/notes`,
      award_emoji: `${baseUrl}/api/v4/projects/${project.id}/issues/${issue.iid}/award_emoji`,
      project: `${baseUrl}/api/v4/projects/${project.id}`,
    },
  };
}

/** What a note entity shows besides its row and users: a diff note's suggestions (review loads them). */
export interface NoteExtras {
  suggestions?: (noteId: number) => unknown[];
}

/** A stored position JSON as the API shows it (GitLab's Position#to_h). */
function positionOf(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * GitLab's Note entity: `commit_id` and `position` for diff notes on merge requests, `resolved`,
 * `resolved_by` and `resolved_at` only for resolvable notes (noteable.ts), and a diff note's
 * `suggestions` when they were loaded.
 */
export function noteEntity(baseUrl: string, note: NoteRow, users: Users, noteableIid: number | null, extras: NoteExtras = {}) {
  const author = users.get(Number(note.author_id));
  const resolvable = isResolvable(note);
  const diffNote = note.type === 'DiffNote';
  const resolvedBy = note.resolved_by_id === null ? undefined : users.get(Number(note.resolved_by_id));
  return {
    id: Number(note.id),
    type: note.type ?? null,
    body: note.body,
    attachment: null,
    author: author ? userBasic(baseUrl, author) : null,
    created_at: isoTime(note.created_at),
    updated_at: isoTime(note.updated_at),
    system: Number(note.system) === 1,
    noteable_id: Number(note.noteable_id),
    noteable_type: note.noteable_type,
    project_id: note.project_id === null ? null : Number(note.project_id),
    ...(diffNote && note.noteable_type === 'MergeRequest' ? { commit_id: note.commit_id } : {}),
    ...(diffNote ? { position: positionOf(note.position) } : {}),
    resolvable,
    ...(resolvable
      ? { resolved: note.resolved_at !== null, resolved_by: resolvedBy ? userBasic(baseUrl, resolvedBy) : null, resolved_at: isoTime(note.resolved_at) }
      : {}),
    ...(diffNote && extras.suggestions ? { suggestions: extras.suggestions(Number(note.id)) } : {}),
    confidential: false,
    internal: false,
    noteable_iid: noteableIid,
    commands_changes: {},
  };
}

/** The users a page of notes shows: authors and resolvers. */
export function noteUserIds(notes: NoteRow[]): Array<number | null> {
  return notes.flatMap((note) => [note.author_id, note.resolved_by_id]);
}

/** A discussion (GitLab's Discussion entity): its id, whether it is one individual note, its notes in order. */
export function discussionEntity(baseUrl: string, discussionId: string, notes: NoteRow[], users: Users, noteableIid: number, extras: NoteExtras = {}) {
  return {
    id: discussionId,
    individual_note: notes.length === 1 && notes[0].type === null,
    notes: notes.map((note) => noteEntity(baseUrl, note, users, noteableIid, extras)),
  };
}

/** The users a page of records refers to, in one query. */
export async function usersById(db: import('../platform/db/database.js').Executor, ids: Array<number | null>): Promise<Users> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null).map(Number))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username', 'name', 'state', 'avatar']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [Number(row.id), row]));
}
