// The metadata fields of the new and edit forms (assignee, reviewers, labels, milestone) and how a
// posted form becomes the API's input: usernames become ids, labels a comma-separated list, and
// metadataOf (mr-params.ts) applies GitLab's rules exactly as for the API (readers only, the
// project's milestones, nothing without admin_merge_request).
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { metadataOf, type MergeRequestMetadata } from '../mr-params.js';
import { str } from './shared.js';

export interface MetadataValues {
  assignees: string;
  reviewers: string;
  labels: string;
  milestoneId: string;
}

export const NO_METADATA: MetadataValues = { assignees: '', reviewers: '', labels: '', milestoneId: '' };

function names(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((name) => name.replace(/^@/, '').trim()).filter(Boolean))].slice(0, 100);
}

export function metadataValuesOf(form: Record<string, string | string[]>): MetadataValues {
  return { assignees: str(form.assignees).slice(0, 2000), reviewers: str(form.reviewers).slice(0, 2000), labels: str(form.labels).slice(0, 5000), milestoneId: str(form.milestone_id) };
}

async function idsOf(deps: Deps, usernames: string[]): Promise<number[]> {
  if (usernames.length === 0) return [];
  const rows = await deps.db.selectFrom('users').select(['id', 'username']).where('username', 'in', usernames).execute();
  return usernames.flatMap((name) => rows.filter((row) => row.username.toLowerCase() === name.toLowerCase()).map((row) => Number(row.id)));
}

/** The form's metadata as the API would take it; undefined for those who may not set it. */
export async function formMetadata(deps: Deps, access: ProjectAccess, values: MetadataValues): Promise<MergeRequestMetadata | undefined> {
  const [assigneeIds, reviewerIds] = await Promise.all([idsOf(deps, names(values.assignees)), idsOf(deps, names(values.reviewers))]);
  const labels = values.labels.split(',').map((label) => label.trim()).filter(Boolean).slice(0, 100);
  const milestone = /^\d{1,12}$/.test(values.milestoneId) ? Number(values.milestoneId) : 0;
  // Every field is sent: an empty one clears (0 is GitLab's "nobody" / "no milestone").
  const input = { assignee_ids: assigneeIds.length ? assigneeIds : [0], reviewer_ids: reviewerIds.length ? reviewerIds : [0], labels, milestone_id: milestone };
  return metadataOf(deps, access, input, input);
}

async function milestonesOf(deps: Deps, access: ProjectAccess) {
  return deps.db.selectFrom('milestones').select(['id', 'title']).where('project_id', '=', Number(access.project.id)).where('state', '=', 'active').orderBy('title').limit(200).execute();
}

export async function metadataFields(deps: Deps, access: ProjectAccess, values: MetadataValues): Promise<Html> {
  const milestones = await milestonesOf(deps, access);
  return html`<label for="mr-assignees">Assignee</label><input type="text" id="mr-assignees" name="assignees" value="${values.assignees}" autocomplete="off" aria-describedby="mr-people-help">
<label for="mr-reviewers">Reviewers</label><input type="text" id="mr-reviewers" name="reviewers" value="${values.reviewers}" autocomplete="off" aria-describedby="mr-people-help">
<p class="muted" id="mr-people-help">Usernames, separated by commas.</p>
<label for="mr-labels">Labels</label><input type="text" id="mr-labels" name="labels" value="${values.labels}" autocomplete="off" aria-describedby="mr-labels-help">
<p class="muted" id="mr-labels-help">Label names, separated by commas.</p>
<label for="mr-milestone">Milestone</label><select id="mr-milestone" name="milestone_id"><option value="">No milestone</option>${milestones.map((milestone) => html`<option value="${Number(milestone.id)}"${String(milestone.id) === values.milestoneId ? html` selected` : ''}>${milestone.title}</option>`)}</select>`;
}
