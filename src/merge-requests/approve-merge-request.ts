// Approvals (GitLab's MergeRequests::ApprovalService and RemoveApprovalService, and the approvals
// entities): Developers approve an open merge request once each; its author only where the project
// allows it (merge_requests_author_approval), its committers not where the project forbids it
// (merge_requests_disable_committers_approval). The project's approvals_before_merge is how many
// approvals merging needs (the `not_approved` check).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { ProjectAccess, ProjectRow } from '../platform/auth/subjects.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { NotFoundError, StatusError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import { publishMergeRequestEvent } from './publish-events.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { unauthorized } from '../platform/http/api-error.js';
import { isoTime } from '../platform/clock.js';
import { userBasic } from '../accounts/api.js';
import { usersById } from '../issues/api.js';
import type { MergeRequestRow } from './rows.js';
import { latestDiffOf } from './finder.js';
import { addSystemNote } from './system-notes.js';
import { readRepository } from './mr-repository.js';
import { versionCommits } from './version-reads.js';

async function isCommitter(deps: Deps, mr: MergeRequestRow, target: ProjectRow, user: AuthUser): Promise<boolean> {
  const diff = await latestDiffOf(deps.db, mr);
  const repoPath = await readRepository(deps, target);
  if (!diff || !repoPath) return false;
  const emails = (await deps.db.selectFrom('emails').select('email').where('user_id', '=', user.id).execute().catch(() => [])).map((row) => row.email.toLowerCase());
  const own = await deps.db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirst();
  const mine = new Set([...emails, ...(own ? [own.email.toLowerCase()] : [])]);
  return (await versionCommits(repoPath, diff)).some((commit) => mine.has(commit.committer.email.toLowerCase()) || mine.has(commit.author.email.toLowerCase()));
}

export async function canApprove(deps: Deps, access: ProjectAccess, mr: MergeRequestRow, target: ProjectRow, user: AuthUser | null): Promise<boolean> {
  if (!user || mr.state !== 'opened' || !canOnProject(access, 'approve_merge_request')) return false;
  if (Number(mr.author_id) === user.id && Number(target.merge_requests_author_approval) !== 1) return false;
  if (Number(target.merge_requests_disable_committers_approval) === 1 && (await isCommitter(deps, mr, target, user))) return false;
  const existing = await deps.db.selectFrom('merge_request_approvals').select('id').where('merge_request_id', '=', Number(mr.id)).where('user_id', '=', user.id).executeTakeFirst();
  return !existing;
}

export async function approveMergeRequest(deps: Deps, access: ProjectAccess, actor: AuthUser, mr: MergeRequestRow, target: ProjectRow, sha: string | undefined): Promise<void> {
  if (!(await canApprove(deps, access, mr, target, actor))) throw unauthorized();
  const diff = await latestDiffOf(deps.db, mr);
  if (sha !== undefined && sha !== diff?.head_commit_sha) throw new StatusError(409, `SHA does not match HEAD of source branch: ${diff?.head_commit_sha ?? ''}`);
  const now = deps.clock.now();
  try {
    await inTransaction(deps.db, async (trx) => {
      await trx.insertInto('merge_request_approvals').values({ merge_request_id: Number(mr.id), user_id: actor.id, created_at: now }).execute();
      await trx.updateTable('merge_request_reviewers').set({ state: 'approved' }).where('merge_request_id', '=', Number(mr.id)).where('user_id', '=', actor.id).execute();
      await addSystemNote(trx, mr, actor.id, 'approved this merge request', now);
      await recordEvent(trx, deps.clock, { projectId: Number(target.id), authorId: actor.id, action: 'approved', target: { type: 'MergeRequest', id: Number(mr.id), iid: mr.iid, title: mr.title } });
      await publishMergeRequestEvent(deps, trx, 'merge_request.approved', mr, actor.id);
    });
  } catch (error) {
    // A concurrent approval by the same user: approved once.
    if (isUniqueViolation(error)) throw unauthorized();
    throw error;
  }
}

export async function unapproveMergeRequest(deps: Deps, actor: AuthUser, mr: MergeRequestRow): Promise<void> {
  const now = deps.clock.now();
  const removed = await inTransaction(deps.db, async (trx) => {
    const deleted = await trx.deleteFrom('merge_request_approvals').where('merge_request_id', '=', Number(mr.id)).where('user_id', '=', actor.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    await trx.updateTable('merge_request_reviewers').set({ state: 'unreviewed' }).where('merge_request_id', '=', Number(mr.id)).where('user_id', '=', actor.id).execute();
    await addSystemNote(trx, mr, actor.id, 'unapproved this merge request', now);
    await publishMergeRequestEvent(deps, trx, 'merge_request.unapproved', mr, actor.id);
    return true;
  });
  if (!removed) throw new NotFoundError();
}

/** GitLab's approvals entity (EE::API::Entities::ApprovalState shape, with CE's fields). */
export async function approvalsEntity(deps: Deps, access: ProjectAccess, mr: MergeRequestRow, target: ProjectRow, viewer: AuthUser | null) {
  const rows = await deps.db.selectFrom('merge_request_approvals').selectAll().where('merge_request_id', '=', Number(mr.id)).orderBy('id').execute();
  const users = await usersById(deps.db, rows.map((row) => Number(row.user_id)));
  const approvedBy = rows.flatMap((row) => (users.has(Number(row.user_id)) ? [{ user: userBasic(deps.config.baseUrl, users.get(Number(row.user_id))!) }] : []));
  const required = Number(target.approvals_before_merge);
  const left = Math.max(0, required - rows.length);
  return {
    id: Number(mr.id),
    iid: mr.iid,
    project_id: Number(mr.target_project_id),
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: isoTime(mr.created_at),
    updated_at: isoTime(mr.updated_at),
    merge_status: mr.merge_status === 'cannot_be_merged_rechecking' ? 'checking' : mr.merge_status,
    approved: left === 0,
    approvals_required: required,
    approvals_left: left,
    require_password_to_approve: false,
    approved_by: approvedBy,
    suggested_approvers: [],
    approvers: [],
    approver_groups: [],
    user_has_approved: viewer !== null && rows.some((row) => Number(row.user_id) === viewer.id),
    user_can_approve: await canApprove(deps, access, mr, target, viewer),
    approval_rules_left: [],
    has_approval_rules: false,
    merge_request_approvers_available: false,
    multiple_approval_rules_available: false,
    invalid_approvers_rules: [],
  };
}

/** GET …/approval_state: the project's one rule (any eligible approver, approvals_before_merge required). */
export async function approvalStateEntity(deps: Deps, access: ProjectAccess, mr: MergeRequestRow, target: ProjectRow, viewer: AuthUser | null) {
  const approvals = await approvalsEntity(deps, access, mr, target, viewer);
  return {
    approval_rules_overwritten: false,
    rules: [{
      id: Number(target.id),
      name: 'All Members',
      rule_type: 'any_approver',
      eligible_approvers: [],
      approvals_required: approvals.approvals_required,
      users: [],
      groups: [],
      contains_hidden_groups: false,
      approved_by: approvals.approved_by.map((entry) => entry.user),
      source_rule: null,
      approved: approvals.approved,
      overridden: false,
    }],
  };
}
