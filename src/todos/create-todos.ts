// Creating to-dos for an event on an issue or a merge request (GitLab's TodoService#new_issuable,
// #reassigned_assignable, #reassigned_reviewable, #update_issuable, #handle_note): assignees get
// `assigned`, new reviewers `review_requested`, users named at the very start of the text
// `directly_addressed`, others named in it `mentioned`. As GitLab (without its `multiple_todos` flag),
// a user who already has a pending to-do on the target gets no second one, and only users who may read
// the target get one. Runs as a job after the change commits; a repeat creates nothing new.
import type { Deps } from '../platform/deps.js';
import type { TodoAction, TodoTargetType } from '../platform/db/tables/todos.js';
import { toAuthUser } from '../accounts/api.js';
import { mentionedUsernames } from '../markdown/api.js';
import { canReadTarget } from './todos-queries.js';

export const JOB_CREATE_TODOS = 'todos.create';

export interface CreateTodosPayload {
  targetType: TodoTargetType;
  targetId: number;
  actorId: number;
  /** Give the target's assignees an `assigned` to-do, except these (the assignees before the change). */
  assigneesExcept?: number[];
  /** Give the target's reviewers a `review_requested` to-do, except these. */
  reviewersExcept?: number[];
  /** Mentions in the target's title and description (only these usernames, when given), or in a comment. */
  mentions?: { noteId?: number; only?: string[] };
}

interface Target {
  projectId: number;
  title: string;
  description: string | null;
  assigneeIds: number[];
  reviewerIds: number[];
}

async function loadTarget(deps: Deps, type: TodoTargetType, id: number): Promise<Target | null> {
  if (type === 'Issue') {
    const issue = await deps.db.selectFrom('issues').select(['project_id', 'title', 'description']).where('id', '=', id).executeTakeFirst();
    if (!issue) return null;
    const assignees = await deps.db.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', id).execute();
    return { projectId: Number(issue.project_id), title: issue.title, description: issue.description, assigneeIds: assignees.map((row) => Number(row.user_id)), reviewerIds: [] };
  }
  const mr = await deps.db.selectFrom('merge_requests').select(['target_project_id', 'title', 'description']).where('id', '=', id).executeTakeFirst();
  if (!mr) return null;
  const assignees = await deps.db.selectFrom('merge_request_assignees').select('user_id').where('merge_request_id', '=', id).execute();
  const reviewers = await deps.db.selectFrom('merge_request_reviewers').select('user_id').where('merge_request_id', '=', id).execute();
  return { projectId: Number(mr.target_project_id), title: mr.title, description: mr.description, assigneeIds: assignees.map((row) => Number(row.user_id)), reviewerIds: reviewers.map((row) => Number(row.user_id)) };
}

/** Usernames (lower case) the text opens with (GitLab's DirectlyAddressedUserReferenceFilter): `@a @b, please …`. */
export function directlyAddressedUsernames(text: string | null | undefined): string[] {
  const lead = /^\s*((?:@[A-Za-z0-9_][A-Za-z0-9_.-]*[\s,]*)+)/.exec(text ?? '');
  return lead ? mentionedUsernames(lead[1]) : [];
}

async function mentionActions(deps: Deps, payload: CreateTodosPayload, target: Target): Promise<Array<{ userId: number; action: TodoAction; noteId: number | null }>> {
  const mentions = payload.mentions;
  if (!mentions) return [];
  let text = `${target.title}\n${target.description ?? ''}`;
  let lead = target.description;
  let noteId: number | null = null;
  if (mentions.noteId !== undefined) {
    const note = await deps.db.selectFrom('notes').select(['id', 'body', 'system']).where('id', '=', mentions.noteId).executeTakeFirst();
    if (!note || note.system === 1) return [];
    text = note.body;
    lead = note.body;
    noteId = Number(note.id);
  }
  const named = mentions.only ?? mentionedUsernames(text);
  if (named.length === 0) return [];
  const direct = new Set(directlyAddressedUsernames(lead));
  const users = await deps.db.selectFrom('users').select(['id', 'username_lower']).where('username_lower', 'in', named.slice(0, 100)).execute();
  return users.map((user) => ({ userId: Number(user.id), action: direct.has(user.username_lower) ? 'directly_addressed' as const : 'mentioned' as const, noteId }));
}

export async function createTodos(deps: Deps, payload: CreateTodosPayload): Promise<void> {
  const target = await loadTarget(deps, payload.targetType, payload.targetId);
  if (!target) return;
  const wanted = [
    ...(payload.assigneesExcept ? target.assigneeIds.filter((id) => !payload.assigneesExcept!.includes(id)).map((userId) => ({ userId, action: 'assigned' as const, noteId: null })) : []),
    ...(payload.reviewersExcept ? target.reviewerIds.filter((id) => !payload.reviewersExcept!.includes(id)).map((userId) => ({ userId, action: 'review_requested' as const, noteId: null })) : []),
    ...(await mentionActions(deps, payload, target)),
  ];
  if (wanted.length === 0) return;
  const pending = await deps.db.selectFrom('todos').select('user_id').where('target_type', '=', payload.targetType).where('target_id', '=', payload.targetId).where('state', '=', 'pending').execute();
  const skip = new Set(pending.map((row) => Number(row.user_id)));
  const users = await deps.db.selectFrom('users').select(['id', 'username', 'name', 'state', 'admin', 'otp_required']).where('id', 'in', [...new Set(wanted.map((row) => row.userId))]).execute();
  const now = deps.clock.now();
  for (const row of wanted) {
    if (skip.has(row.userId)) continue;
    skip.add(row.userId);
    const user = users.find((candidate) => Number(candidate.id) === row.userId);
    if (!user || !(await canReadTarget(deps, toAuthUser(user), payload.targetType, payload.targetId))) continue;
    await deps.db.insertInto('todos').values({
      user_id: row.userId, project_id: target.projectId, author_id: payload.actorId, target_type: payload.targetType, target_id: payload.targetId,
      action: row.action, note_id: row.noteId, created_at: now, updated_at: now,
    }).execute();
  }
}
