// What an issue page's sidebar shows (its assignees, labels, milestone) and, for those who may set
// them, what it offers: the project's members, the labels and open milestones the project sees.
import type { Deps } from '../../platform/deps.js';
import { projectUsersQuery } from '../../accounts/api.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { availableLabelsQuery, labelsOfIssues, type LabelRow } from '../../labels/api.js';
import { milestonesQuery, type MilestoneRow } from '../../milestones/api.js';
import type { PolicyIssue } from '../finder.js';

/** Lists offered in the sidebar are cut here (a project with more uses the API, or search later). */
const OFFERED = 200;

export interface SidebarPerson {
  id: number;
  username: string;
  name: string;
}

export interface SidebarData {
  assignees: SidebarPerson[];
  labels: LabelRow[];
  milestone: MilestoneRow | undefined;
  /** Only for those who may set the metadata. */
  offered?: { people: SidebarPerson[]; labels: LabelRow[]; milestones: MilestoneRow[] };
}

/**
 * Who may be assigned: the project's active users as GET /projects/:id/users lists them (GitLab's
 * authorized users), however each reaches the project, a share with a group included.
 */
function assignable(deps: Deps, access: ProjectAccess): Promise<SidebarPerson[]> {
  return projectUsersQuery(deps, access.project, {}).clearSelect().select(['id', 'username', 'name']).where('state', '=', 'active').clearOrderBy().orderBy('name').limit(OFFERED).execute();
}

export async function sidebarData(deps: Deps, access: ProjectAccess, issue: PolicyIssue, editable: boolean): Promise<SidebarData> {
  const [assignees, labels, milestone] = await Promise.all([
    issue.assigneeIds.length ? deps.db.selectFrom('users').select(['id', 'username', 'name']).where('id', 'in', issue.assigneeIds).orderBy('name').execute() : Promise.resolve([]),
    labelsOfIssues(deps.db, [Number(issue.id)]).then((byIssue) => byIssue.get(Number(issue.id)) ?? []),
    issue.milestone_id === null ? Promise.resolve(undefined) : deps.db.selectFrom('milestones').selectAll().where('id', '=', Number(issue.milestone_id)).executeTakeFirst(),
  ]);
  if (!editable) return { assignees, labels, milestone };
  const parent = { project: access.project };
  const [people, offeredLabels, milestones] = await Promise.all([
    assignable(deps, access),
    (await availableLabelsQuery(deps, parent)).limit(OFFERED).execute(),
    (await milestonesQuery(deps, parent, { state: 'active', includeAncestors: true })).limit(OFFERED).execute(),
  ]);
  return { assignees, labels, milestone, offered: { people, labels: offeredLabels, milestones } };
}
