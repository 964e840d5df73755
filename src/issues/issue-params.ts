// Parameters of the issue writes (GitLab's issue_params, lib/api/issues.rb) and how they become an
// action's input: what the caller may not set is dropped as GitLab drops it (set_issue_metadata,
// set_confidentiality, the Owner-only backdating and iids); what Kiln cannot store is refused with
// a 400 naming the parameter.
import type { Deps } from '../platform/deps.js';
import { p } from '../platform/http/params.js';
import { ParamError } from '../platform/errors.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject, canReadIssue, canSetConfidentiality, canSetIssueMetadata } from '../platform/auth/policies/index.js';
import { projectAccess, toAuthUser } from '../accounts/api.js';
import { groupAndAncestorIds } from '../labels/api.js';
import type { IssueMetadata } from './issue-metadata.js';
import type { PolicyIssue } from './finder.js';

export const ISSUE_TYPES = ['issue', 'incident'] as const;

/** Shared by POST and PUT (GitLab's issue_params_ce). */
export const issueParams = {
  description: p.string.optional(),
  assignee_ids: p.integers.optional(),
  assignee_id: p.integer.optional(),
  milestone_id: p.integer.optional(),
  labels: p.strings.optional(),
  due_date: p.string.optional(),
  confidential: p.boolean.optional(),
  discussion_locked: p.boolean.optional(),
  issue_type: p.string.optional({ values: ISSUE_TYPES }),
};

/** Issue parameters of paid tiers, which Kiln does not have: refused, never ignored. */
export const PAID_ISSUE_PARAMS = ['weight', 'epic_id', 'epic_iid', 'health_status', 'iteration_id'];

/** A 400 naming each of these parameters the caller sent: Kiln cannot store them. */
export function refuseUnsupported(input: Record<string, unknown>, names: string[]): void {
  const sent = names.filter((name) => input[name] !== undefined && input[name] !== null);
  if (sent.length) throw new ParamError(sent.map((name) => `${name} is not supported`).join(', '));
}

/** The caller sent the parameter, with a value or as null/empty (which clears it). */
function sent(input: Record<string, unknown>, name: string): boolean {
  return name in input || `${name}[]` in input;
}

function blank(value: unknown): boolean {
  return value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` due date, `null` to clear it (null or empty), or a 400 naming it. */
export function dueDateOf(input: Record<string, unknown>, value: string | undefined): string | null | undefined {
  if (!sent(input, 'due_date')) return undefined;
  if (blank(input.due_date)) return null;
  const text = (value ?? '').trim();
  if (!DATE.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`)) || new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) !== text) {
    throw new ParamError('due_date is invalid');
  }
  return text;
}

/** An ISO 8601 time (created_at, updated_at, the list filters) as epoch milliseconds, or a 400 naming it. */
export function timeOf(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ParamError(`${name} is invalid`);
  return ms;
}

interface MetadataParams {
  assignee_ids?: number[];
  assignee_id?: number;
  milestone_id?: number;
  labels?: string[];
  add_labels?: string[];
  remove_labels?: string[];
  due_date?: string;
  discussion_locked?: boolean;
}

/** Assignees who may read the issue (or, for a new one, the project's issues); GitLab drops the rest silently. */
async function readableAssignees(deps: Deps, access: ProjectAccess, ids: number[], issue: PolicyIssue | null): Promise<number[]> {
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  if (wanted.length === 0) return [];
  const rows = await deps.db.selectFrom('users').selectAll().where('id', 'in', wanted).execute();
  const kept: number[] = [];
  for (const id of wanted) {
    const row = rows.find((user) => Number(user.id) === id);
    if (!row) continue;
    const user = toAuthUser(row);
    const { level } = await projectAccess(deps.reads, user, access.project, deps.clock.now());
    const subject = { user, level, visibility: access.project.visibility, features: access.project };
    if (issue ? canReadIssue(subject, issue) : canOnProject(subject, 'read_issue')) kept.push(id);
  }
  // Free tier: one assignee per issue, as GitLab CE keeps the first (Issue#allows_multiple_assignees?).
  return deps.config.tier === 'free' ? kept.slice(0, 1) : kept;
}

/** A milestone of the project or of one of its ancestor groups; any other id is refused. */
async function milestoneOf(deps: Deps, access: ProjectAccess, id: number): Promise<number> {
  const groups = await groupAndAncestorIds(deps.db, Number(access.project.namespace_id));
  const milestone = await deps.db
    .selectFrom('milestones')
    .select('id')
    .where('id', '=', id)
    .where((eb) => eb.or([eb('project_id', '=', Number(access.project.id)), ...(groups.length ? [eb('group_id', 'in', groups)] : [])]))
    .executeTakeFirst();
  if (!milestone) throw new ParamError('milestone_id does not have a valid value');
  return Number(milestone.id);
}

/**
 * The metadata a caller may set (GitLab's IssuableBaseService#filter_params): nothing without
 * set_issue_metadata — a Guest editing their own issue changes none of it — and unknown labels are
 * created only for callers who manage labels.
 */
export async function metadataOf(deps: Deps, access: ProjectAccess, input: Record<string, unknown>, params: MetadataParams, issue: PolicyIssue | null): Promise<IssueMetadata | undefined> {
  if (!canSetIssueMetadata(access, issue !== null)) return undefined;
  const metadata: IssueMetadata = { createLabels: canOnProject(access, 'admin_label') };
  if (sent(input, 'labels')) metadata.labels = params.labels ?? [];
  if (params.add_labels !== undefined) metadata.addLabels = params.add_labels;
  if (params.remove_labels !== undefined) metadata.removeLabels = params.remove_labels;
  if (sent(input, 'assignee_ids')) {
    metadata.assigneeIds = await readableAssignees(deps, access, params.assignee_ids ?? [], issue);
    // GitLab keeps the assignees when every id sent was dropped (and a list of only 0 or nothing clears them).
    if (metadata.assigneeIds.length === 0 && !(params.assignee_ids ?? []).every((id) => id === 0)) delete metadata.assigneeIds;
  } else if (sent(input, 'assignee_id')) {
    const id = blank(input.assignee_id) ? 0 : (params.assignee_id ?? 0);
    metadata.assigneeIds = await readableAssignees(deps, access, [id], issue);
    if (metadata.assigneeIds.length === 0 && id !== 0) delete metadata.assigneeIds;
  }
  if (sent(input, 'milestone_id')) {
    metadata.milestoneId = blank(input.milestone_id) || params.milestone_id === 0 || params.milestone_id === undefined ? null : await milestoneOf(deps, access, params.milestone_id);
  }
  const dueDate = dueDateOf(input, params.due_date);
  if (dueDate !== undefined) metadata.dueDate = dueDate;
  if (params.discussion_locked !== undefined) metadata.discussionLocked = params.discussion_locked;
  return metadata;
}

/** `confidential` as the caller may set it (set_confidentiality), else dropped. */
export function confidentialOf(access: ProjectAccess, value: boolean | undefined, persisted: boolean): boolean | undefined {
  return value !== undefined && canSetConfidentiality(access, persisted) ? value : undefined;
}
