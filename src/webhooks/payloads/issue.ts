// Issue Hook and Note Hook payloads (GitLab's Gitlab::DataBuilder::Issuable and ::Note, documented in
// doc/user/project/integrations/webhook_events.md). Incidents are issues of type incident: the same
// hook with `type: "Incident"`.
import type { Deps } from '../../platform/deps.js';
import type { DomainEvent } from '../../platform/domain-events.js';
import { plainNoteAttrs } from './note-attrs.js';
import { humanDuration, humanTimeChange, totalTimeSpent } from '../../time-tracking/api.js';
import { hookTime, labelAttrs, projectAttrs, projectForHook, repositoryAttrs, userAttrs, usersForHook, type ProjectHookRow } from './common.js';

export type IssueRow = NonNullable<Awaited<ReturnType<typeof findIssue>>>;

async function findIssue(deps: Deps, issueId: number) {
  return deps.db.selectFrom('issues').selectAll().where('id', '=', issueId).executeTakeFirst();
}

async function labelsWhere(deps: Deps, filter: { issueId: number } | { labelIds: number[] }) {
  if ('labelIds' in filter && filter.labelIds.length === 0) return [];
  let query = deps.db
    .selectFrom('labels')
    .select(['labels.id', 'labels.title', 'labels.color', 'labels.project_id', 'labels.group_id', 'labels.description', 'labels.created_at', 'labels.updated_at'])
    .orderBy('labels.title');
  query = 'issueId' in filter
    ? query.innerJoin('label_links', 'labels.id', 'label_links.label_id').where('label_links.issue_id', '=', filter.issueId)
    : query.where('labels.id', 'in', filter.labelIds);
  const rows = await query.execute();
  return rows.map(labelAttrs);
}

async function assigneeIds(deps: Deps, issueId: number): Promise<number[]> {
  const rows = await deps.db.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', issueId).orderBy('user_id').execute();
  return rows.map((row) => Number(row.user_id));
}

export type IssueAction = 'open' | 'close' | 'reopen' | 'update';

/** Issue#hook_attrs with its labels and assignees. */
async function issueAttrs(deps: Deps, project: ProjectHookRow, issue: IssueRow, timeChange = 0) {
  const [labels, assignees, spent] = await Promise.all([labelsWhere(deps, { issueId: Number(issue.id) }), assigneeIds(deps, Number(issue.id)), totalTimeSpent(deps.db, 'issue_id', Number(issue.id))]);
  const attrs = {
    author_id: Number(issue.author_id),
    closed_at: hookTime(issue.closed_at),
    confidential: Number(issue.confidential) === 1,
    created_at: hookTime(issue.created_at),
    description: issue.description,
    discussion_locked: issue.discussion_locked === null ? null : Number(issue.discussion_locked) === 1,
    due_date: issue.due_date,
    id: Number(issue.id),
    iid: Number(issue.iid),
    last_edited_at: null,
    last_edited_by_id: null,
    milestone_id: issue.milestone_id === null ? null : Number(issue.milestone_id),
    moved_to_id: null,
    duplicated_to_id: null,
    project_id: Number(issue.project_id),
    relative_position: null,
    state_id: issue.state === 'closed' ? 2 : 1,
    time_estimate: Number(issue.time_estimate),
    title: issue.title,
    updated_at: hookTime(issue.updated_at),
    updated_by_id: null,
    type: issue.issue_type === 'incident' ? 'Incident' : 'Issue',
    url: `${deps.config.baseUrl}/${project.full_path}/-/${issue.issue_type === 'incident' ? 'issues/incident' : 'issues'}/${issue.iid}`,
    total_time_spent: spent,
    time_change: timeChange,
    human_total_time_spent: humanDuration(spent),
    human_time_change: humanTimeChange(timeChange),
    human_time_estimate: humanDuration(Number(issue.time_estimate)),
    assignee_ids: assignees,
    assignee_id: assignees[0] ?? null,
    labels,
    state: issue.state,
    severity: 'unknown',
    customer_relations_contacts: [] as unknown[],
  };
  return { attrs, labels, assignees };
}

/** What an issue event changed: the fields, and their values before and after when the event carries them. */
export interface IssueChangeSet {
  fields: string[];
  previous: Record<string, unknown>;
  current: Record<string, unknown>;
}

const NO_CHANGES: IssueChangeSet = { fields: [], previous: {}, current: {} };

export function issueChangeSet(event: DomainEvent): IssueChangeSet {
  // `?? {}`: a job queued by a version whose events carried no values still builds (previous null).
  if (event.kind === 'issue.updated') return { fields: event.changes, previous: event.previous ?? {}, current: event.current ?? {} };
  // The new assignees are read when the job runs: the event names the old ones only.
  if (event.kind === 'issue.reassigned') return { fields: ['assignees'], previous: { assignees: event.previousAssigneeIds }, current: {} };
  return NO_CHANGES;
}

/** The fields GitLab's hooks report in `changes` (IssueBuilder's safe hook attributes and relations Kiln has). */
const REPORTED = new Set(['confidential', 'description', 'discussion_locked', 'due_date', 'milestone_id', 'title', 'labels', 'assignees', 'time_estimate', 'total_time_spent', 'time_change']);

/** A stored column value as hooks show it. */
function hookValue(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.endsWith('_at')) return hookTime(Number(value));
  if (field === 'confidential' || field === 'discussion_locked') return Number(value) === 1;
  if (field.endsWith('_id') || field === 'id' || field === 'iid') return Number(value);
  return value;
}

const idsOf = (value: unknown): number[] | null => (Array.isArray(value) ? value.map(Number) : null);

async function relationChange(deps: Deps, field: 'labels' | 'assignees', set: IssueChangeSet, now: { labels: unknown[]; assignees: unknown[] }) {
  const [before, after] = [idsOf(set.previous[field]), idsOf(set.current[field])];
  if (field === 'labels') {
    const [previous, current] = await Promise.all([before ? labelsWhere(deps, { labelIds: before }) : [], after ? labelsWhere(deps, { labelIds: after }) : now.labels]);
    return { previous, current };
  }
  const users = await usersForHook(deps, [...(before ?? []), ...(after ?? [])]);
  const present = (ids: number[]) => ids.map((id) => userAttrs(deps, users.get(id))).filter(Boolean);
  return { previous: before ? present(before) : [], current: after ? present(after) : now.assignees };
}

/**
 * GitLab's `changes`: the state on close and reopen, every attribute on open, and on an edit each
 * reported field with its values before and after the edit (as the event recorded them; a value the
 * event lacks is null before and the issue's value now after).
 */
async function issueChanges(deps: Deps, issue: IssueRow, action: IssueAction, set: IssueChangeSet, now: { labels: unknown[]; assignees: unknown[] }) {
  const changes: Record<string, { previous: unknown; current: unknown }> = {};
  const row = issue as Record<string, unknown>;
  if (action === 'close') {
    changes.closed_at = { previous: null, current: hookTime(issue.closed_at) };
    changes.state_id = { previous: 1, current: 2 };
  }
  if (action === 'reopen') {
    changes.closed_at = { previous: hookTime(issue.closed_at), current: null };
    changes.state_id = { previous: 2, current: 1 };
  }
  if (action === 'open') {
    for (const field of ['author_id', 'created_at', 'description', 'id', 'iid', 'project_id', 'title']) changes[field] = { previous: null, current: hookValue(field, row[field]) };
  }
  for (const field of set.fields) {
    if (!REPORTED.has(field)) continue;
    if (field === 'labels' || field === 'assignees') changes[field] = await relationChange(deps, field, set, now);
    else changes[field] = { previous: hookValue(field, set.previous[field]), current: hookValue(field, field in set.current ? set.current[field] : row[field]) };
  }
  if (action !== 'open') {
    changes.updated_at = { previous: hookValue('updated_at', set.previous.updated_at), current: hookValue('updated_at', set.current.updated_at ?? issue.updated_at) };
  }
  return changes;
}

export async function issueHookData(deps: Deps, input: { issueId: number; actorId: number | null; action: IssueAction; changes?: IssueChangeSet }) {
  const issue = await findIssue(deps, input.issueId);
  if (!issue) return null;
  const project = await projectForHook(deps, Number(issue.project_id));
  if (!project) return null;
  const { attrs, labels, assignees } = await issueAttrs(deps, project, issue, Number(input.changes?.current.time_change ?? 0));
  // The payload is built when the job runs; the state is the one the event made, even if it changed since.
  const state = input.action === 'close' ? 'closed' : input.action === 'open' || input.action === 'reopen' ? 'opened' : issue.state;
  attrs.state = state;
  attrs.state_id = state === 'closed' ? 2 : 1;
  const users = await usersForHook(deps, [input.actorId ?? Number(issue.author_id), ...assignees]);
  const confidential = Number(issue.confidential) === 1;
  const assigneeAttrs = assignees.map((id) => userAttrs(deps, users.get(id))).filter(Boolean);
  const changes = await issueChanges(deps, issue, input.action, input.changes ?? NO_CHANGES, { labels, assignees: assigneeAttrs });
  return {
    confidential,
    data: {
      object_kind: 'issue',
      event_type: confidential ? 'confidential_issue' : 'issue',
      user: userAttrs(deps, users.get(input.actorId ?? Number(issue.author_id))),
      project: projectAttrs(deps, project),
      object_attributes: { ...attrs, action: input.action },
      labels,
      changes,
      repository: repositoryAttrs(deps, project),
      assignees: assigneeAttrs,
    },
  };
}

export async function noteHookData(deps: Deps, input: { noteId: number; actorId: number | null }) {
  const note = await deps.db.selectFrom('notes').selectAll().where('id', '=', input.noteId).executeTakeFirst();
  if (!note || note.noteable_type !== 'Issue') return null;
  const issue = await findIssue(deps, Number(note.noteable_id));
  const project = await projectForHook(deps, Number(note.project_id));
  if (!issue || !project) return null;
  const { attrs } = await issueAttrs(deps, project, issue);
  const users = await usersForHook(deps, [Number(note.author_id)]);
  const confidential = Number(issue.confidential) === 1;
  const issueUrl = attrs.url;
  return {
    confidential,
    data: {
      object_kind: 'note',
      event_type: confidential ? 'confidential_note' : 'note',
      user: userAttrs(deps, users.get(Number(note.author_id))),
      project_id: Number(project.id),
      project: projectAttrs(deps, project),
      object_attributes: plainNoteAttrs(note, 'Issue', `${issueUrl}#note_${note.id}`),
      repository: repositoryAttrs(deps, project),
      issue: { ...attrs, labels: attrs.labels },
    },
  };
}
