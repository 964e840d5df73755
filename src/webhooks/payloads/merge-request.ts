// Merge Request Hook payloads, and the Note Hook of a comment on a merge request (GitLab's
// Gitlab::DataBuilder::Issuable with MergeRequestBuilder, and ::Note; doc/user/project/integrations/
// webhook_events.md): the merge request's hook attributes, its source and target projects, the
// last commit, labels, assignees and reviewers, the `changes` of an update, and the `action`.
import type { Deps } from '../../platform/deps.js';
import type { DomainEvent } from '../../platform/domain-events.js';
import { mergeRequestHookFacts, type MergeRequestHookFacts } from '../../merge-requests/api.js';
import { humanDuration, humanTimeChange, totalTimeSpent } from '../../time-tracking/api.js';
import { findCommit, readableRepository } from '../../repositories/api.js';
import { hookTime, labelAttrs, projectAttrs, projectForHook, repositoryAttrs, userAttrs, usersForHook, type ProjectHookRow, type UserHookRow } from './common.js';
import { plainNoteAttrs } from './note-attrs.js';

export type MergeRequestAction = 'open' | 'close' | 'reopen' | 'update' | 'merge' | 'approved' | 'unapproved';

const STATE_IDS: Record<string, number> = { opened: 1, closed: 2, merged: 3, locked: 4 };

export const MERGE_REQUEST_ACTIONS: Record<string, MergeRequestAction> = {
  'merge_request.opened': 'open',
  'merge_request.closed': 'close',
  'merge_request.reopened': 'reopen',
  'merge_request.updated': 'update',
  'merge_request.merged': 'merge',
  'merge_request.approved': 'approved',
  'merge_request.unapproved': 'unapproved',
};

/** The source branch's head commit as hooks show it (GitLab's Commit#hook_attrs), read in the target repository. */
async function lastCommit(deps: Deps, project: ProjectHookRow, facts: MergeRequestHookFacts) {
  // A new merge request's first version may not be recorded yet: the source branch's head then.
  const repoPath = await readableRepository(deps, facts.target);
  const commit = repoPath ? await findCommit(repoPath, facts.headSha ?? `refs/heads/${facts.mr.source_branch}`) : null;
  if (!commit) return null;
  return {
    id: commit.id,
    message: commit.message,
    title: commit.message.split('\n')[0],
    timestamp: new Date(commit.author.seconds * 1000).toISOString().replace(/\.\d+Z$/, '+00:00'),
    url: `${deps.config.baseUrl}/${project.full_path}/-/commit/${commit.id}`,
    author: { name: commit.author.name, email: commit.author.email },
  };
}

/** MergeRequest#hook_attrs for the merge request as the event left it. */
async function mergeRequestAttrs(deps: Deps, facts: MergeRequestHookFacts, target: ProjectHookRow, source: ProjectHookRow | undefined, timeChange = 0) {
  const spent = await totalTimeSpent(deps.db, 'merge_request_id', Number(facts.mr.id));
  const { mr } = facts;
  const labels = facts.labels.map(labelAttrs);
  const flag = (value: number | null) => (value === null ? null : Number(value) === 1);
  return {
    assignee_id: facts.assigneeIds[0] ?? null,
    author_id: Number(mr.author_id),
    created_at: hookTime(mr.created_at),
    description: mr.description,
    draft: facts.draft,
    head_pipeline_id: facts.headPipelineId,
    id: Number(mr.id),
    iid: mr.iid,
    last_edited_at: hookTime(mr.last_edited_at),
    last_edited_by_id: mr.last_edited_by_id === null ? null : Number(mr.last_edited_by_id),
    merge_commit_sha: mr.merge_commit_sha,
    merge_error: mr.merge_error,
    merge_params: { force_remove_source_branch: flag(mr.force_remove_source_branch) ? '1' : '0' },
    merge_status: mr.merge_status,
    merge_user_id: mr.merge_user_id === null ? null : Number(mr.merge_user_id),
    merge_when_pipeline_succeeds: Number(mr.merge_when_pipeline_succeeds) === 1,
    milestone_id: mr.milestone_id === null ? null : Number(mr.milestone_id),
    source_branch: mr.source_branch,
    source_project_id: mr.source_project_id === null ? null : Number(mr.source_project_id),
    state_id: STATE_IDS[mr.state] ?? 1,
    target_branch: mr.target_branch,
    target_project_id: Number(mr.target_project_id),
    time_estimate: Number(mr.time_estimate),
    title: mr.title,
    updated_at: hookTime(mr.updated_at),
    updated_by_id: mr.updated_by_id === null ? null : Number(mr.updated_by_id),
    prepared_at: null as string | null,
    assignee_ids: facts.assigneeIds,
    blocking_discussions_resolved: facts.blockingDiscussionsResolved,
    detailed_merge_status: facts.detailedMergeStatus,
    first_contribution: false,
    human_time_change: humanTimeChange(timeChange),
    human_time_estimate: humanDuration(Number(mr.time_estimate)),
    human_total_time_spent: humanDuration(spent),
    labels,
    last_commit: await lastCommit(deps, target, facts),
    reviewer_ids: facts.reviewerIds,
    source: source ? projectAttrs(deps, source) : null,
    state: mr.state,
    target: projectAttrs(deps, target),
    time_change: timeChange,
    total_time_spent: spent,
    url: facts.url,
    work_in_progress: facts.draft,
  };
}

/** A changed value as hooks show it: times as hook times, flags as booleans, ids as numbers. */
function hookValue(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.endsWith('_at')) return hookTime(Number(value));
  if (field === 'discussion_locked' || field === 'draft') return Number(value) === 1;
  if (field.endsWith('_id')) return Number(value);
  return value;
}

/** GitLab's `changes` of a merge request event: the state on close, reopen and merge, each edited field before and after. */
async function mergeRequestChanges(deps: Deps, event: DomainEvent, facts: MergeRequestHookFacts, labels: unknown[]) {
  const changes: Record<string, { previous: unknown; current: unknown }> = {};
  const { mr } = facts;
  if (event.kind === 'merge_request.opened') {
    for (const field of ['author_id', 'created_at', 'description', 'id', 'iid', 'source_branch', 'source_project_id', 'target_branch', 'target_project_id', 'title'] as const) {
      changes[field] = { previous: null, current: hookValue(field, mr[field]) };
    }
    changes.merge_status = { previous: null, current: 'unchecked' };
  }
  if (event.kind === 'merge_request.closed') changes.state_id = { previous: 1, current: 2 };
  if (event.kind === 'merge_request.reopened') changes.state_id = { previous: 2, current: 1 };
  if (event.kind === 'merge_request.merged') changes.state_id = { previous: 4, current: 3 };
  if (event.kind !== 'merge_request.updated') return changes;
  const users = await usersForHook(deps, ['assignees', 'reviewers'].flatMap((field) => [...ids(event.previous[field]), ...ids(event.current[field])]));
  const people = (list: number[]) => list.map((id) => userAttrs(deps, users.get(id))).filter(Boolean);
  for (const field of event.changes) {
    const [before, after] = [event.previous[field], event.current[field]];
    if (field === 'assignees' || field === 'reviewers') changes[field] = { previous: people(ids(before)), current: people(ids(after)) };
    else if (field === 'labels') changes.labels = { previous: await labelsByIds(deps, ids(before)), current: labels };
    else changes[field] = { previous: hookValue(field, before), current: hookValue(field, after) };
  }
  return changes;
}

const ids = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

async function labelsByIds(deps: Deps, labelIds: number[]) {
  if (labelIds.length === 0) return [];
  const rows = await deps.db.selectFrom('labels').selectAll().where('id', 'in', labelIds).orderBy('title').execute();
  return rows.map(labelAttrs);
}

export async function mergeRequestHookData(deps: Deps, event: DomainEvent) {
  if (!('mergeRequestId' in event)) return null;
  const facts = await mergeRequestHookFacts(deps, event.mergeRequestId);
  if (!facts) return null;
  const [target, source] = await Promise.all([
    projectForHook(deps, Number(facts.mr.target_project_id)),
    facts.mr.source_project_id === null ? undefined : projectForHook(deps, Number(facts.mr.source_project_id)),
  ]);
  if (!target) return null;
  const timeChange = event.kind === 'merge_request.updated' ? Number(event.current.time_change ?? 0) : 0;
  const attrs = await mergeRequestAttrs(deps, facts, target, source, timeChange);
  const users = await usersForHook(deps, [event.actorId ?? Number(facts.mr.author_id), ...facts.assigneeIds, ...facts.reviewerIds]);
  const present = (list: number[]) => list.map((id) => userAttrs(deps, users.get(id))).filter((user): user is NonNullable<ReturnType<typeof userAttrs>> => user !== null);
  const oldrev = event.kind === 'merge_request.updated' && event.oldrev ? { oldrev: event.oldrev } : {};
  const assignees = present(facts.assigneeIds);
  const reviewers = present(facts.reviewerIds);
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: userAttrs(deps, users.get(event.actorId ?? Number(facts.mr.author_id)) as UserHookRow | undefined),
    project: projectAttrs(deps, target),
    object_attributes: { ...attrs, action: MERGE_REQUEST_ACTIONS[event.kind], ...oldrev },
    labels: attrs.labels,
    changes: await mergeRequestChanges(deps, event, facts, attrs.labels),
    repository: repositoryAttrs(deps, target),
    ...(assignees.length ? { assignees } : {}),
    ...(reviewers.length ? { reviewers } : {}),
  };
}

/** The `merge_request` of a Note Hook on a merge request (its hook attributes, no action). */
export async function mergeRequestForNoteHook(deps: Deps, mergeRequestId: number) {
  const facts = await mergeRequestHookFacts(deps, mergeRequestId);
  if (!facts) return null;
  const [target, source] = await Promise.all([
    projectForHook(deps, Number(facts.mr.target_project_id)),
    facts.mr.source_project_id === null ? undefined : projectForHook(deps, Number(facts.mr.source_project_id)),
  ]);
  if (!target) return null;
  return { target, attrs: await mergeRequestAttrs(deps, facts, target, source) };
}

/** The Note Hook of a comment on a merge request (a diff note carries its position). */
export async function mergeRequestNoteHookData(deps: Deps, input: { noteId: number }) {
  const note = await deps.db.selectFrom('notes').selectAll().where('id', '=', input.noteId).executeTakeFirst();
  if (!note || note.noteable_type !== 'MergeRequest') return null;
  const found = await mergeRequestForNoteHook(deps, Number(note.noteable_id));
  if (!found) return null;
  const users = await usersForHook(deps, [Number(note.author_id)]);
  const json = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));
  return {
    object_kind: 'note',
    event_type: 'note',
    user: userAttrs(deps, users.get(Number(note.author_id))),
    project_id: Number(found.target.id),
    project: projectAttrs(deps, found.target),
    object_attributes: {
      // A merge request's note is a plain note's attributes and, for a diff note, its position.
      ...plainNoteAttrs(note, 'MergeRequest', `${found.attrs.url}#note_${note.id}`),
      commit_id: note.commit_id ?? null,
      line_code: note.line_code ?? null,
      original_position: json(note.original_position ?? null),
      position: json(note.position ?? null),
      resolved_at: hookTime(note.resolved_at ?? null),
      resolved_by_id: note.resolved_by_id === null || note.resolved_by_id === undefined ? null : Number(note.resolved_by_id),
    },
    repository: repositoryAttrs(deps, found.target),
    merge_request: found.attrs,
  };
}
