// Wire shapes of issues and notes (GitLab's Issue and Note entities), fields listed explicitly.
import type { Selectable } from 'kysely';
import { isoTime } from '../platform/clock.js';
import type { IssuesTable, NotesTable } from '../platform/db/tables/issues.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { type UserRow, userBasic, projectWebUrl } from '../accounts/api.js';

export type IssueRow = Selectable<IssuesTable>;
export type NoteRow = Selectable<NotesTable>;
type Users = Map<number, Pick<UserRow, 'id' | 'username' | 'name' | 'state'>>;

export function issueEntity(baseUrl: string, issue: IssueRow, project: ProjectRow, users: Users, notesCount = 0) {
  const author = users.get(Number(issue.author_id));
  const closedBy = issue.closed_by_id === null ? undefined : users.get(Number(issue.closed_by_id));
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
    labels: [],
    milestone: null,
    assignees: [],
    author: author ? userBasic(baseUrl, author) : null,
    type: issue.issue_type.toUpperCase(),
    assignee: null,
    user_notes_count: notesCount,
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: null,
    confidential: issue.confidential === 1,
    discussion_locked: null,
    issue_type: issue.issue_type,
    web_url: webUrl,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    task_completion_status: { count: 0, completed_count: 0 },
    has_tasks: false,
    references: { short: `#${issue.iid}`, relative: `#${issue.iid}`, full: `${project.full_path}#${issue.iid}` },
    severity: 'UNKNOWN',
    moved_to_id: null,
    service_desk_reply_to: null,
    _links: {
      self: `${baseUrl}/api/v4/projects/${project.id}/issues/${issue.iid}`,
      notes: `${baseUrl}/api/v4/projects/${project.id}/issues/${issue.iid}/notes`,
      project: `${baseUrl}/api/v4/projects/${project.id}`,
    },
  };
}

export function noteEntity(baseUrl: string, note: NoteRow, users: Users, noteableIid: number | null) {
  const author = users.get(Number(note.author_id));
  return {
    id: Number(note.id),
    type: null,
    body: note.body,
    attachment: null,
    author: author ? userBasic(baseUrl, author) : null,
    created_at: isoTime(note.created_at),
    updated_at: isoTime(note.updated_at),
    system: note.system === 1,
    noteable_id: Number(note.noteable_id),
    noteable_type: note.noteable_type,
    resolvable: false,
    confidential: false,
    noteable_iid: noteableIid,
    commands_changes: {},
  };
}

/** The users a page of records refers to, in one query. */
export async function usersById(db: import('../platform/db/database.js').Executor, ids: Array<number | null>): Promise<Users> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null).map(Number))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username', 'name', 'state']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [Number(row.id), row]));
}
