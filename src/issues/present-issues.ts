// A page of issues as entities: every association (authors, closers, assignees, labels, milestones,
// projects, note counts) read once for the whole page, never per issue.
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { labelsOfIssues } from '../labels/api.js';
import { milestoneEntity, type MilestoneParentPath, type MilestoneRow } from '../milestones/api.js';
import { issueEntity, usersById, type IssueRow } from './entities.js';
import { notesCounts } from './finder.js';
import { voteCounts } from './award-emoji/award-emoji.js';
import { issueHooks } from './hooks.js';

/** Assignee user ids of each issue, in the order they were assigned. */
export async function assigneesOf(db: Executor, issueIds: number[]): Promise<Map<number, number[]>> {
  const byIssue = new Map<number, number[]>();
  if (issueIds.length === 0) return byIssue;
  const rows = await db.selectFrom('issue_assignees').select(['issue_id', 'user_id']).where('issue_id', 'in', issueIds).orderBy('user_id').execute();
  for (const row of rows) {
    const list = byIssue.get(Number(row.issue_id)) ?? [];
    list.push(Number(row.user_id));
    byIssue.set(Number(row.issue_id), list);
  }
  return byIssue;
}

async function projectsOf(deps: Deps, rows: IssueRow[], known: ProjectRow[]): Promise<Map<number, ProjectRow>> {
  const projects = new Map(known.map((project) => [Number(project.id), project]));
  const missing = [...new Set(rows.map((row) => Number(row.project_id)).filter((id) => !projects.has(id)))];
  if (missing.length) for (const project of await deps.db.selectFrom('projects').selectAll().where('id', 'in', missing).execute()) projects.set(Number(project.id), project);
  return projects;
}

async function milestonesOf(deps: Deps, rows: IssueRow[], projects: Map<number, ProjectRow>): Promise<Map<number, unknown>> {
  const ids = [...new Set(rows.map((row) => row.milestone_id).filter((id) => id !== null).map(Number))];
  const presented = new Map<number, unknown>();
  if (ids.length === 0) return presented;
  const milestones: MilestoneRow[] = await deps.db.selectFrom('milestones').selectAll().where('id', 'in', ids).execute();
  const groupIds = milestones.filter((m) => m.group_id !== null).map((m) => Number(m.group_id));
  const groups = groupIds.length ? await deps.db.selectFrom('namespaces').select(['id', 'full_path']).where('id', 'in', groupIds).execute() : [];
  const now = deps.clock.now();
  for (const milestone of milestones) {
    let path: MilestoneParentPath | undefined;
    if (milestone.project_id !== null) {
      const project = projects.get(Number(milestone.project_id));
      if (project) path = { kind: 'project', fullPath: project.full_path };
    } else {
      const group = groups.find((row) => Number(row.id) === Number(milestone.group_id));
      if (group) path = { kind: 'group', fullPath: group.full_path };
    }
    if (path) presented.set(Number(milestone.id), milestoneEntity(deps.config.baseUrl, milestone, path, now));
  }
  return presented;
}

/** Who is looking: their `subscribed` is shown; anonymous callers are subscribed to nothing. */
export type Viewer = { id: number; username: string } | null;

/** Subscriptions are the notifications feature's, asked through the hook it registers (hooks.ts). */
function subscribedOf(deps: Deps, viewer: Viewer, rows: Array<IssueRow & { assigneeIds: number[] }>): Promise<Set<number>> {
  const subscribed = issueHooks(deps).subscribedIssueIds;
  return viewer && subscribed ? subscribed(viewer, rows) : Promise.resolve(new Set<number>());
}

/** Issues whose assignees are read already (an issue the policy was asked about) are not read again. */
type IssueWithAssignees = IssueRow & { assigneeIds?: number[] };

export async function presentIssues(deps: Deps, rows: IssueWithAssignees[], options: { projects?: ProjectRow[]; withLabelsDetails?: boolean; viewer?: Viewer } = {}) {
  const ids = rows.map((row) => Number(row.id));
  // The assignees first: the subscriptions count an assignee as a participant, and read them from here.
  const assignees = rows.every((row) => row.assigneeIds !== undefined)
    ? new Map(rows.map((row) => [Number(row.id), row.assigneeIds!]))
    : await assigneesOf(deps.db, ids);
  const withAssignees = rows.map((row) => ({ ...row, assigneeIds: assignees.get(Number(row.id)) ?? [] }));
  const [labels, counts, projects, subscribed, votes] = await Promise.all([
    labelsOfIssues(deps.db, ids),
    notesCounts(deps, ids),
    projectsOf(deps, rows, options.projects ?? []),
    subscribedOf(deps, options.viewer ?? null, withAssignees),
    voteCounts(deps.db, 'Issue', ids),
  ]);
  const [users, milestones] = await Promise.all([
    usersById(deps.db, rows.flatMap((row) => [row.author_id, row.closed_by_id, ...(assignees.get(Number(row.id)) ?? [])])),
    milestonesOf(deps, rows, projects),
  ]);
  return rows.map((row) => issueEntity(deps.config.baseUrl, row, projects.get(Number(row.project_id))!, {
    users,
    labels: labels.get(Number(row.id)),
    assigneeIds: assignees.get(Number(row.id)),
    milestone: row.milestone_id === null ? null : milestones.get(Number(row.milestone_id)),
    notesCount: counts.get(Number(row.id)) ?? 0,
    withLabelsDetails: options.withLabelsDetails,
    subscribed: subscribed.has(Number(row.id)),
    votes: votes.get(Number(row.id)),
  }));
}

export async function presentIssue(deps: Deps, row: IssueRow, project: ProjectRow, options: { withLabelsDetails?: boolean; viewer?: Viewer } = {}) {
  return (await presentIssues(deps, [row], { projects: [project], ...options }))[0];
}
