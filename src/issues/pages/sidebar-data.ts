// What an issue page's sidebar shows (its assignees, labels, milestone) and, for those who may set
// them, what it offers: the project's members, the labels and open milestones the project sees.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { availableLabelsQuery, groupAndAncestorIds, labelsOfIssues, type LabelRow } from '../../labels/api.js';
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

/** Members of the project and of its ancestor groups, and a personal project's owner: who may be assigned. */
async function assignable(deps: Deps, access: ProjectAccess): Promise<SidebarPerson[]> {
  const namespaceId = Number(access.project.namespace_id);
  const groups = await groupAndAncestorIds(deps.db, namespaceId);
  const today = new Date(deps.clock.now()).toISOString().slice(0, 10);
  const members = await deps.db
    .selectFrom('members')
    .select('user_id')
    .where((eb) => eb.or([
      eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', Number(access.project.id))]),
      ...(groups.length ? [eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', 'in', groups)])] : []),
    ]))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>=', today)]))
    .limit(OFFERED * 2)
    .execute();
  const owner = await deps.db.selectFrom('namespaces').select('owner_id').where('id', '=', namespaceId).where('kind', '=', 'user').executeTakeFirst();
  const ids = [...new Set([...members.map((row) => Number(row.user_id)), ...(owner?.owner_id ? [Number(owner.owner_id)] : [])])];
  if (ids.length === 0) return [];
  return deps.db.selectFrom('users').select(['id', 'username', 'name']).where('id', 'in', ids).where('state', '=', 'active').orderBy('name').limit(OFFERED).execute();
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
