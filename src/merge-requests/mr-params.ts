// Parameters of the merge request writes (lib/api/merge_requests.rb: create_params, update_params)
// and how they become an action's input: assignees and reviewers who cannot read the merge request
// are dropped as GitLab drops them, a milestone must be the project's or an ancestor group's, and
// what only admin_merge_request may set is dropped for everyone else (IssuableBaseService#filter_params).
import type { Deps } from '../platform/deps.js';
import { p } from '../platform/http/params.js';
import { ParamError } from '../platform/errors.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { projectAccess, toAuthUser } from '../accounts/api.js';
import { groupAndAncestorIds } from '../labels/api.js';

/** Shared by POST and PUT (GitLab's optional_params_ce). */
export const mergeRequestParams = {
  description: p.string.optional(),
  assignee_id: p.integer.optional(),
  assignee_ids: p.integers.optional(),
  reviewer_ids: p.integers.optional(),
  labels: p.strings.optional(),
  add_labels: p.strings.optional(),
  remove_labels: p.strings.optional(),
  milestone_id: p.integer.optional(),
  remove_source_branch: p.boolean.optional(),
  allow_collaboration: p.boolean.optional(),
  allow_maintainer_to_push: p.boolean.optional(),
  squash: p.boolean.optional(),
};

/** What a caller holding admin_merge_request may set, already checked. */
export interface MergeRequestMetadata {
  labels?: string[];
  addLabels?: string[];
  removeLabels?: string[];
  createLabels: boolean;
  assigneeIds?: number[];
  reviewerIds?: number[];
  milestoneId?: number | null;
}

/** The caller sent the parameter, with a value or as null/empty (which clears it). */
export function sent(input: Record<string, unknown>, name: string): boolean {
  return name in input || `${name}[]` in input;
}

function blank(value: unknown): boolean {
  return value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Users who may read the project's merge requests; GitLab drops the rest silently. */
async function readers(deps: Deps, access: ProjectAccess, ids: number[]): Promise<number[]> {
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  if (wanted.length === 0) return [];
  const rows = await deps.db.selectFrom('users').selectAll().where('id', 'in', wanted).execute();
  const kept: number[] = [];
  for (const id of wanted) {
    const row = rows.find((user) => Number(user.id) === id);
    if (!row) continue;
    const user = toAuthUser(row);
    const { level } = await projectAccess(deps.readCache, user, access.project, deps.clock.now());
    if (canOnProject({ user, level, visibility: access.project.visibility, features: access.project }, 'read_merge_request')) kept.push(id);
  }
  // The free tier has one assignee and one reviewer per merge request (allows_multiple_assignees?).
  return deps.config.tier === 'free' ? kept.slice(0, 1) : kept;
}

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

interface MetadataParams {
  assignee_id?: number;
  assignee_ids?: number[];
  reviewer_ids?: number[];
  labels?: string[];
  add_labels?: string[];
  remove_labels?: string[];
  milestone_id?: number;
}

/** Metadata on the target project `access`; nothing without admin_merge_request there. */
export async function metadataOf(deps: Deps, access: ProjectAccess, input: Record<string, unknown>, params: MetadataParams): Promise<MergeRequestMetadata | undefined> {
  if (!canOnProject(access, 'admin_merge_request')) return undefined;
  const metadata: MergeRequestMetadata = { createLabels: canOnProject(access, 'admin_label') };
  if (sent(input, 'labels')) metadata.labels = params.labels ?? [];
  if (params.add_labels !== undefined) metadata.addLabels = params.add_labels;
  if (params.remove_labels !== undefined) metadata.removeLabels = params.remove_labels;
  if (sent(input, 'assignee_ids')) {
    metadata.assigneeIds = await readers(deps, access, params.assignee_ids ?? []);
    // Every id dropped (and not a deliberate 0 or empty list to clear): the assignees stay.
    if (metadata.assigneeIds.length === 0 && !(params.assignee_ids ?? []).every((id) => id === 0)) delete metadata.assigneeIds;
  } else if (sent(input, 'assignee_id')) {
    const id = blank(input.assignee_id) ? 0 : (params.assignee_id ?? 0);
    metadata.assigneeIds = await readers(deps, access, [id]);
    if (metadata.assigneeIds.length === 0 && id !== 0) delete metadata.assigneeIds;
  }
  if (sent(input, 'reviewer_ids')) {
    metadata.reviewerIds = await readers(deps, access, params.reviewer_ids ?? []);
    if (metadata.reviewerIds.length === 0 && !(params.reviewer_ids ?? []).every((id) => id === 0)) delete metadata.reviewerIds;
  }
  if (sent(input, 'milestone_id')) {
    metadata.milestoneId = blank(input.milestone_id) || !params.milestone_id ? null : await milestoneOf(deps, access, params.milestone_id);
  }
  return metadata;
}
