// Wire shape of a milestone (GitLab's Milestone entity), fields listed explicitly: `project_id` for a
// project milestone, `group_id` for a group milestone, `expired` once the due date has passed.
import type { Selectable } from 'kysely';
import type { MilestonesTable } from '../platform/db/tables/issues.js';
import { isoTime } from '../platform/clock.js';
import { today } from '../platform/auth/access-scope.js';
import { groupWebUrl, projectWebUrl } from '../accounts/api.js';

export type MilestoneRow = Selectable<MilestonesTable>;

/** Where a milestone's parent lives, for its web_url. */
export interface MilestoneParentPath {
  kind: 'project' | 'group';
  fullPath: string;
}

export function milestoneEntity(baseUrl: string, milestone: MilestoneRow, parent: MilestoneParentPath, nowMs: number) {
  const base = parent.kind === 'project' ? projectWebUrl(baseUrl, parent.fullPath) : groupWebUrl(baseUrl, parent.fullPath);
  return {
    id: Number(milestone.id),
    iid: milestone.iid,
    ...(milestone.project_id !== null ? { project_id: Number(milestone.project_id) } : {}),
    ...(milestone.group_id !== null ? { group_id: Number(milestone.group_id) } : {}),
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: isoTime(milestone.created_at),
    updated_at: isoTime(milestone.updated_at),
    due_date: milestone.due_date,
    start_date: milestone.start_date,
    expired: milestone.due_date !== null && milestone.due_date < today(nowMs),
    web_url: `${base}/-/milestones/${milestone.iid}`,
  };
}
