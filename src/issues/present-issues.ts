// A page of issues as entities: every association (authors, closers, assignees, labels, milestones,
// projects, note counts, votes, the caller's subscription rows) read once for the whole page, never per
// issue; all but the milestones and the projects in one statement (issue-presentation-queries.ts). The
// caller's comments, which may subscribe them too, are read only for issues that have some.
import type { Deps } from '../platform/deps.js';
import type { UserState } from '../platform/db/tables/accounts.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { IssueLabel } from '../labels/api.js';
import { milestoneEntity, type MilestoneParentPath, type MilestoneRow } from '../milestones/api.js';
import { issueEntity, type IssueRow, type Users } from './entities.js';
import { DOWNVOTE, UPVOTE } from './award-emoji/award-emoji.js';
import { issueLinksOf, issueWithLinksOf, type IssueLinksRow } from './issue-presentation-queries.js';
import { RecordNotFoundError } from '../platform/errors.js';
import { canReadIssue, type PolicySubject } from '../platform/auth/policies/index.js';
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

/** Who is looking: their `subscribed` is shown where it is asked for; anonymous callers are subscribed to nothing. */
export type Viewer = { id: number; username: string } | null;

/**
 * Subscriptions are the notifications feature's, asked through the hook it registers (hooks.ts), with
 * what the links read: the viewer's explicit row and the count of comments.
 */
function subscribedOf(deps: Deps, viewer: Viewer, rows: IssueWithAssignees[], links: Map<number, IssueLinksRow>): Promise<Set<number>> {
  const subscribed = issueHooks(deps).subscribedIssueIds;
  if (!viewer || !subscribed) return Promise.resolve(new Set<number>());
  return subscribed(viewer, rows.map((row) => {
    const link = links.get(Number(row.id));
    const explicit = link?.subscribed ?? null;
    // Only the facts the rule reads: spreading the whole row copied its ~30 columns for every issue
    // (~4 % of a page of issues' CPU in a profile).
    return {
      id: row.id, author_id: row.author_id, description: row.description, assigneeIds: row.assigneeIds ?? assigneeIdsOf(link),
      explicit: explicit === null ? null : Number(explicit) === 1, userNotes: Number(link?.notes ?? 0),
    };
  }));
}

/** Issues whose assignees are read already (an issue the policy was asked about) hand them to the subscription rule. */
type IssueWithAssignees = IssueRow & { assigneeIds?: number[] };

/** The links of each issue (issue-presentation-queries.ts), parsed. */
async function linksOf(deps: Deps, ids: number[], viewer: Viewer): Promise<Links> {
  if (ids.length === 0) return { byIssue: new Map(), users: new Map() };
  return parsedLinks(await deps.reads.all<IssueLinksRow>(issueLinksOf(deps.dialect, ids, UPVOTE, DOWNVOTE, viewer?.id ?? null)));
}

type Links = { byIssue: Map<number, IssueLinksRow>; users: Users };

function parsedLinks(rows: readonly IssueLinksRow[]): Links {
  const byIssue = new Map<number, IssueLinksRow>();
  const users: Users = new Map();
  for (const row of rows) {
    byIssue.set(Number(row.id), row);
    for (const [id, username, name, state, avatar] of JSON.parse(row.users) as Array<[number, string, string, UserState, string | null]>) users.set(Number(id), { id: Number(id), username, name, state, avatar });
  }
  return { byIssue, users };
}

function labelsOf(row: IssueLinksRow | undefined): IssueLabel[] {
  if (!row) return [];
  return (JSON.parse(row.labels) as Array<[number, string, string, string | null, number]>).map(([id, title, color, description, archived]) => ({ id: Number(id), title, color, description, archived: Number(archived) }));
}

type PresentOptions = {
  projects?: ProjectRow[];
  withLabelsDetails?: boolean;
  /**
   * Whose `subscribed` the entities show (null: an anonymous caller's, false). Only an issue read
   * alone shows it: GitLab's Issue entity exposes it under `include_subscribed`, which every listing
   * turns off (deciding it reads comments and parses mentions for each issue), so listings leave the
   * option, and the key, out.
   */
  subscribedFor?: Viewer;
};

/** A listing's issues, without `subscribed` unless `subscribedFor` is given. */
export async function presentIssues(deps: Deps, rows: IssueWithAssignees[], options: PresentOptions = {}) {
  return presentWithLinks(deps, rows, linksOf(deps, rows.map((row) => Number(row.id)), options.subscribedFor ?? null), options);
}

/** `rows` as entities, with their links (`read`: being read meanwhile). */
async function presentWithLinks(deps: Deps, rows: IssueWithAssignees[], read: Promise<Links>, options: PresentOptions) {
  const [{ byIssue, users }, projects] = await Promise.all([read, projectsOf(deps, rows, options.projects ?? [])]);
  const [subscribed, milestones] = await Promise.all([
    options.subscribedFor === undefined ? undefined : subscribedOf(deps, options.subscribedFor, rows, byIssue),
    milestonesOf(deps, rows, projects),
  ]);
  return rows.map((row) => {
    const links = byIssue.get(Number(row.id));
    return issueEntity(deps.config.baseUrl, row, projects.get(Number(row.project_id))!, {
      users,
      labels: labelsOf(links),
      assigneeIds: assigneeIdsOf(links),
      milestone: row.milestone_id === null ? null : milestones.get(Number(row.milestone_id)),
      notesCount: Number(links?.notes ?? 0),
      withLabelsDetails: options.withLabelsDetails,
      subscribed: subscribed?.has(Number(row.id)),
      votes: { upvotes: Number(links?.upvotes ?? 0), downvotes: Number(links?.downvotes ?? 0) },
      timeSpent: Number(links?.time_spent ?? 0),
    });
  });
}

function assigneeIdsOf(row: IssueLinksRow | undefined): number[] {
  return row ? (JSON.parse(row.assignees) as number[]).map(Number) : [];
}

/** One issue as GET, POST and PUT of an issue answer it: with the viewer's `subscribed`. */
export async function presentIssue(deps: Deps, row: IssueRow, project: ProjectRow, options: { withLabelsDetails?: boolean; viewer?: Viewer } = {}) {
  return (await presentIssues(deps, [row], { projects: [project], withLabelsDetails: options.withLabelsDetails, subscribedFor: options.viewer ?? null }))[0];
}

/**
 * GET one issue: the issue `iid` of the caller's project with its links in one statement, presented
 * only if the caller may read it (an issue they may not read answers as a missing one, as finder.ts's
 * `findReadableIssue` does). The links are read with the row but used only after the check.
 */
export async function presentReadableIssue(deps: Deps, access: PolicySubject & { project: ProjectRow }, iid: number, options: { viewer?: Viewer } = {}) {
  const [row] = await deps.reads.all<IssueRow & IssueLinksRow>(issueWithLinksOf(deps.dialect, Number(access.project.id), iid, UPVOTE, DOWNVOTE, options.viewer?.id ?? null));
  if (!row) throw new RecordNotFoundError();
  // One row is both the issue (every use reads its columns by name) and its links: copying the issue's
  // columns out of it cost ~4 % of GET one issue's server CPU.
  const facts = Object.assign(row, { assigneeIds: assigneeIdsOf(row) });
  if (!canReadIssue(access, facts)) throw new RecordNotFoundError();
  return (await presentWithLinks(deps, [facts], Promise.resolve(parsedLinks([row])), { projects: [access.project], subscribedFor: options.viewer ?? null }))[0];
}
