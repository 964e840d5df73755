// A page of issues as entities: every association (authors, closers, assignees, labels, milestones,
// projects, note counts, votes) read once for the whole page, never per issue; all but the milestones,
// the projects and the caller's subscriptions in one statement (issue-presentation-queries.ts).
import type { Deps } from '../platform/deps.js';
import type { UserState } from '../platform/db/tables/accounts.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { IssueLabel } from '../labels/api.js';
import { milestoneEntity, type MilestoneParentPath, type MilestoneRow } from '../milestones/api.js';
import { issueEntity, type IssueRow, type Users } from './entities.js';
import { DOWNVOTE, UPVOTE } from './award-emoji/award-emoji.js';
import { issueLinksOf, type IssueLinksRow } from './issue-presentation-queries.js';
import { issueHooks } from './hooks.js';

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

/** The links of each issue (issue-presentation-queries.ts), parsed. */
async function linksOf(deps: Deps, ids: number[]): Promise<{ byIssue: Map<number, IssueLinksRow>; users: Users }> {
  const byIssue = new Map<number, IssueLinksRow>();
  const users: Users = new Map();
  if (ids.length === 0) return { byIssue, users };
  for (const row of await deps.reads.all<IssueLinksRow>(issueLinksOf(deps.dialect, ids, UPVOTE, DOWNVOTE))) {
    byIssue.set(Number(row.id), row);
    for (const [id, username, name, state, avatar] of JSON.parse(row.users) as Array<[number, string, string, UserState, string | null]>) users.set(Number(id), { id: Number(id), username, name, state, avatar });
  }
  return { byIssue, users };
}

function labelsOf(row: IssueLinksRow | undefined): IssueLabel[] {
  if (!row) return [];
  return (JSON.parse(row.labels) as Array<[number, string, string, string | null, number]>).map(([id, title, color, description, archived]) => ({ id: Number(id), title, color, description, archived: Number(archived) }));
}

export async function presentIssues(deps: Deps, rows: IssueWithAssignees[], options: { projects?: ProjectRow[]; withLabelsDetails?: boolean; viewer?: Viewer } = {}) {
  const ids = rows.map((row) => Number(row.id));
  // The subscriptions count an assignee as a participant: they wait for the assignees unless an
  // issue the policy was asked about carries them already.
  const known = rows.every((row) => row.assigneeIds !== undefined);
  const subscribedWith = (links: Map<number, IssueLinksRow>) =>
    subscribedOf(deps, options.viewer ?? null, rows.map((row) => ({ ...row, assigneeIds: row.assigneeIds ?? assigneeIdsOf(links.get(Number(row.id))) })));
  const [{ byIssue, users }, subscribedKnown, projects] = await Promise.all([
    linksOf(deps, ids),
    known ? subscribedWith(new Map()) : undefined,
    projectsOf(deps, rows, options.projects ?? []),
  ]);
  const [subscribed, milestones] = await Promise.all([subscribedKnown ?? subscribedWith(byIssue), milestonesOf(deps, rows, projects)]);
  return rows.map((row) => {
    const links = byIssue.get(Number(row.id));
    return issueEntity(deps.config.baseUrl, row, projects.get(Number(row.project_id))!, {
      users,
      labels: labelsOf(links),
      assigneeIds: assigneeIdsOf(links),
      milestone: row.milestone_id === null ? null : milestones.get(Number(row.milestone_id)),
      notesCount: Number(links?.notes ?? 0),
      withLabelsDetails: options.withLabelsDetails,
      subscribed: subscribed.has(Number(row.id)),
      votes: { upvotes: Number(links?.upvotes ?? 0), downvotes: Number(links?.downvotes ?? 0) },
      timeSpent: Number(links?.time_spent ?? 0),
    });
  });
}

function assigneeIdsOf(row: IssueLinksRow | undefined): number[] {
  return row ? (JSON.parse(row.assignees) as number[]).map(Number) : [];
}

export async function presentIssue(deps: Deps, row: IssueRow, project: ProjectRow, options: { withLabelsDetails?: boolean; viewer?: Viewer } = {}) {
  return (await presentIssues(deps, [row], { projects: [project], ...options }))[0];
}
