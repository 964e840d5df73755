// Changing a merge request (GitLab's MergeRequests::UpdateService, CloseService, ReopenService): the
// fields and metadata the caller may set, closing and reopening (state changes guarded by the state
// they leave, so two racing requests cannot both apply), retargeting, and the system notes of
// what changed. A retarget or a reopen records a new diff version and rechecks mergeability.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation, type Executor } from '../platform/db/database.js';
import { StatusError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import { publishMergeRequestEvent, publishMergeRequestUpdate } from './publish-events.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { MergeRequestRow } from './entities.js';
import type { MergeRequestMetadata } from './mr-params.js';
import { applyLabels, applyUsers } from './apply-metadata.js';
import { isDraftTitle } from './draft.js';
import { findMergeRequestById, openMergeRequestFor } from './finder.js';
import { branchHead, readRepository, sourceHead } from './mr-repository.js';
import { recordDiffVersion } from './record-diff-version.js';
import { markUnchecked, scheduleMergeabilityCheck } from './check-mergeability.js';
import { addSystemNote } from './system-notes.js';
import { duplicateError } from './create-merge-request.js';
import { syncClosingIssues } from './closing-issues.js';

export interface UpdateMergeRequestInput {
  title?: string;
  description?: string | null;
  targetBranch?: string;
  stateEvent?: 'close' | 'reopen';
  discussionLocked?: boolean;
  metadata?: MergeRequestMetadata;
  removeSourceBranch?: boolean;
  allowCollaboration?: boolean;
  squash?: boolean;
}

async function usernames(trx: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await trx.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [Number(row.id), row.username]));
}

/** GitLab's assignee and reviewer notes: `assigned to @a and unassigned @b`, `requested review from @r`. */
async function userChangeNote(trx: Executor, previous: number[], next: number[], words: { added: string; removed: string }): Promise<string | null> {
  const added = next.filter((id) => !previous.includes(id));
  const removed = previous.filter((id) => !next.includes(id));
  if (added.length === 0 && removed.length === 0) return null;
  const names = await usernames(trx, [...added, ...removed]);
  const list = (ids: number[]) => ids.map((id) => `@${names.get(id) ?? 'ghost'}`).join(', ');
  const parts: string[] = [];
  if (added.length) parts.push(`${words.added} ${list(added)}`);
  if (removed.length) parts.push(`${words.removed} ${list(removed)}`);
  return parts.join(' and ');
}

async function validateRetarget(deps: Deps, mr: MergeRequestRow, target: ProjectRow, branch: string): Promise<void> {
  const sameProject = Number(mr.source_project_id) === Number(target.id);
  if (sameProject && branch === mr.source_branch) throw new StatusError(422, ["You can't use same project/branch for source and target"]);
  if (mr.state === 'opened') {
    const existing = await openMergeRequestFor(deps.db, { targetProjectId: Number(target.id), sourceProjectId: Number(mr.source_project_id), sourceBranch: mr.source_branch, targetBranch: branch }, Number(mr.id));
    if (existing) throw duplicateError(existing.iid);
  }
  if ((await branchHead(await readRepository(deps, target), branch)) === null) throw new StatusError(422, [`Target branch "${branch}" does not exist`]);
}

export async function updateMergeRequest(deps: Deps, actorId: number, mr: MergeRequestRow, target: ProjectRow, input: UpdateMergeRequestInput): Promise<MergeRequestRow> {
  const open = mr.state === 'opened' || mr.state === 'locked';
  const retarget = input.targetBranch !== undefined && input.targetBranch !== mr.target_branch && mr.state !== 'merged' ? input.targetBranch : undefined;
  if (retarget !== undefined) await validateRetarget(deps, mr, target, retarget);
  const closing = input.stateEvent === 'close' && open;
  // ReopenService: a closed merge request whose source branch still exists.
  const reopening = input.stateEvent === 'reopen' && mr.state === 'closed' && (await sourceHead(deps, await readRepository(deps, target), mr)) !== null;
  const now = deps.clock.now();
  const previous = { assignees: [] as number[], reviewers: [] as number[] };
  let reassigned: number[] | null = null;
  let rereviewed: number[] | null = null;
  try {
    await inTransaction(deps.db, async (trx) => {
      const changes: Partial<MergeRequestRow> = {};
      const notes: string[] = [];
      if (input.title !== undefined && input.title !== mr.title) {
        changes.title = input.title;
        changes.draft = isDraftTitle(input.title) ? 1 : 0;
        const wasDraft = isDraftTitle(mr.title);
        if (changes.draft === 1 && !wasDraft) notes.push('marked this merge request as **draft**');
        else if (changes.draft === 0 && wasDraft) notes.push('marked this merge request as **ready**');
        else notes.push(`changed title from **${mr.title}** to **${input.title}**`);
      }
      if (input.description !== undefined && (input.description ?? null) !== mr.description) {
        changes.description = input.description ?? null;
        notes.push('changed the description');
      }
      if (changes.title !== undefined || changes.description !== undefined) {
        changes.last_edited_at = now;
        changes.last_edited_by_id = actorId;
      }
      if (retarget !== undefined) {
        changes.target_branch = retarget;
        notes.push(`changed target branch from \`${mr.target_branch}\` to \`${retarget}\``);
      }
      if (input.discussionLocked !== undefined && (mr.discussion_locked === null || (Number(mr.discussion_locked) === 1) !== input.discussionLocked)) {
        changes.discussion_locked = input.discussionLocked ? 1 : 0;
        notes.push(input.discussionLocked ? 'locked this merge request' : 'unlocked this merge request');
      }
      if (input.metadata?.milestoneId !== undefined) changes.milestone_id = input.metadata.milestoneId;
      if (input.removeSourceBranch !== undefined) changes.force_remove_source_branch = input.removeSourceBranch ? 1 : 0;
      if (input.allowCollaboration !== undefined && Number(mr.source_project_id) !== Number(target.id)) changes.allow_collaboration = input.allowCollaboration ? 1 : 0;
      if (input.squash !== undefined && target.squash_option !== 'always' && target.squash_option !== 'never') changes.squash = input.squash ? 1 : 0;
      if (closing) Object.assign(changes, { state: 'closed', closed_by_id: actorId, closed_at: now });
      if (reopening) Object.assign(changes, { state: 'opened', closed_by_id: null, closed_at: null, merge_status: 'unchecked' });
      const id = Number(mr.id);
      const labelIds = () => trx.selectFrom('merge_request_label_links').select('label_id').where('merge_request_id', '=', id).orderBy('label_id').execute().then((rows) => rows.map((row) => Number(row.label_id)));
      const labelsBefore = input.metadata ? await labelIds() : [];
      let labelsChanged = false;
      if (input.metadata) {
        labelsChanged = await applyLabels(trx, target, id, actorId, input.metadata, now);
        reassigned = await applyUsers(trx, 'merge_request_assignees', id, input.metadata.assigneeIds, now);
        rereviewed = await applyUsers(trx, 'merge_request_reviewers', id, input.metadata.reviewerIds, now);
        if (reassigned) previous.assignees = reassigned;
        if (rereviewed) previous.reviewers = rereviewed;
      }
      // The state it leaves is the guard: a racing close, reopen or merge changed it first → nothing here.
      const updated = await trx
        .updateTable('merge_requests')
        .set({ ...changes, updated_at: now, updated_by_id: actorId })
        .where('id', '=', id)
        .where('state', '=', mr.state)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw new StatusError(409, 'The merge request was changed by another request. Please try again.');
      if (reassigned) {
        const note = await userChangeNote(trx, reassigned, input.metadata!.assigneeIds!, { added: 'assigned to', removed: 'unassigned' });
        if (note) notes.push(note);
      }
      if (rereviewed) {
        const note = await userChangeNote(trx, rereviewed, input.metadata!.reviewerIds!, { added: 'requested review from', removed: 'removed review request for' });
        if (note) notes.push(note);
      }
      for (const body of notes) await addSystemNote(trx, mr, actorId, body, now);
      const target_ = { type: 'MergeRequest' as const, id, iid: mr.iid, title: changes.title ?? mr.title };
      if (closing) await recordEvent(trx, deps.clock, { projectId: Number(target.id), authorId: actorId, action: 'closed', target: target_ });
      if (reopening) await recordEvent(trx, deps.clock, { projectId: Number(target.id), authorId: actorId, action: 'reopened', target: target_ });
      // Hooks and e-mail: a close or reopen is its own event; any other change an update with what changed.
      if (closing || reopening) await publishMergeRequestEvent(deps, trx, closing ? 'merge_request.closed' : 'merge_request.reopened', mr, actorId);
      else {
        const update = { changes: [] as string[], previous: {} as Record<string, unknown>, current: {} as Record<string, unknown> };
        const note = (field: string, before: unknown, after: unknown) => {
          update.changes.push(field);
          update.previous[field] = before;
          update.current[field] = after;
        };
        for (const field of ['title', 'description', 'target_branch', 'discussion_locked', 'milestone_id', 'draft'] as const) {
          if (changes[field] !== undefined && changes[field] !== mr[field]) note(field, mr[field], changes[field]);
        }
        if (reassigned) note('assignees', reassigned, input.metadata!.assigneeIds);
        if (rereviewed) note('reviewers', rereviewed, input.metadata!.reviewerIds);
        if (labelsChanged) note('labels', labelsBefore, await labelIds());
        if (update.changes.length > 0) {
          note('updated_at', mr.updated_at, now);
          await publishMergeRequestUpdate(deps, trx, mr, actorId, update);
        }
      }
      if (retarget !== undefined) await markUnchecked(trx, [id]);
      if (retarget !== undefined || reopening) await scheduleMergeabilityCheck(trx, deps, id);
    });
  } catch (error) {
    // Reopening or retargeting onto a pair that another open merge request holds.
    if (isUniqueViolation(error)) {
      const existing = await openMergeRequestFor(deps.db, { targetProjectId: Number(target.id), sourceProjectId: Number(mr.source_project_id), sourceBranch: mr.source_branch, targetBranch: retarget ?? mr.target_branch });
      throw duplicateError(existing?.iid ?? 0);
    }
    throw error;
  }
  let fresh = (await findMergeRequestById(deps.db, Number(mr.id)))!;
  if (retarget !== undefined || reopening) {
    deps.pokeWorker();
    await recordDiffVersion(deps, fresh, target, { always: true, actorId });
    fresh = (await findMergeRequestById(deps.db, Number(mr.id)))!;
  }
  if (retarget !== undefined || input.title !== undefined || input.description !== undefined || reopening) await syncClosingIssues(deps, fresh);
  return fresh;
}
