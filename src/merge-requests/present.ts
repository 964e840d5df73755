// A page of merge requests as entities: every association (users, labels, assignees, reviewers,
// milestones, target projects with their settings, latest diff versions, note counts, approvals,
// threads) read once for the whole page, never per merge request.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { milestoneEntity, type MilestoneRow } from '../milestones/api.js';
import type { LabelRow } from '../labels/api.js';
import { usersById } from '../issues/api.js';
import { mergeRequestBasicEntity, mergeRequestSimpleEntity, type MergeRequestDiffRow, type MergeRequestLinks, type MergeRequestRow, type ReferenceFrom, type Users } from './entities.js';
import { mergeRequestHooks } from './hooks.js';
import type { MergeFacts } from './merge-status.js';
import { headPipelines } from '../commit-statuses/api.js';
import { collaborationAllowed } from './source-branch-access.js';
import { pageFactsQuery, pagePeopleQuery } from './merge-requests-queries.js';

export interface PageLinks {
  links: (mr: MergeRequestRow) => MergeRequestLinks;
}

function grouped<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(key(row)) ?? [];
    list.push(row);
    map.set(key(row), list);
  }
  return map;
}

async function milestonesOf(deps: Deps, rows: MergeRequestRow[], projects: Map<number, ProjectRow>): Promise<Map<number, unknown>> {
  const ids = [...new Set(rows.map((row) => row.milestone_id).filter((id) => id !== null).map(Number))];
  const presented = new Map<number, unknown>();
  if (ids.length === 0) return presented;
  const milestones: MilestoneRow[] = await deps.db.selectFrom('milestones').selectAll().where('id', 'in', ids).execute();
  const groupIds = milestones.filter((m) => m.group_id !== null).map((m) => Number(m.group_id));
  const groups = groupIds.length ? await deps.db.selectFrom('namespaces').select(['id', 'full_path']).where('id', 'in', groupIds).execute() : [];
  const otherProjectIds = milestones.filter((m) => m.project_id !== null && !projects.has(Number(m.project_id))).map((m) => Number(m.project_id));
  const others = otherProjectIds.length ? await deps.db.selectFrom('projects').select(['id', 'full_path']).where('id', 'in', otherProjectIds).execute() : [];
  const now = deps.clock.now();
  for (const milestone of milestones) {
    const fullPath = milestone.project_id !== null
      ? (projects.get(Number(milestone.project_id)) ?? others.find((row) => Number(row.id) === Number(milestone.project_id)))?.full_path
      : groups.find((row) => Number(row.id) === Number(milestone.group_id))?.full_path;
    if (fullPath === undefined) continue;
    presented.set(Number(milestone.id), milestoneEntity(deps.config.baseUrl, milestone, { kind: milestone.project_id !== null ? 'project' : 'group', fullPath }, now));
  }
  return presented;
}

/** Everything the entities of these merge requests show, read in a handful of queries. */
export async function loadLinks(deps: Deps, rows: MergeRequestRow[], options: { from: ReferenceFrom; withLabelsDetails?: boolean }): Promise<PageLinks> {
  const ids = rows.map((row) => Number(row.id));
  const db = deps.db;
  const none = ids.length === 0;
  // Source projects too: a fork's merge request shows the head pipeline of the fork.
  const projectIds = [...new Set(rows.flatMap((row) => [Number(row.target_project_id), ...(row.source_project_id === null ? [] : [Number(row.source_project_id)])]))];
  const userIds = rows.flatMap((row) => [row.author_id, row.merged_by_id, row.merge_user_id, row.closed_by_id]).filter((id) => id !== null).map(Number);
  const [projects, people, labels, facts, unresolved] = await Promise.all([
    none ? [] : db.selectFrom('projects').selectAll().where('id', 'in', projectIds).execute(),
    none ? [] : pagePeopleQuery(db, ids, [...new Set(userIds)]),
    none ? [] : db.selectFrom('merge_request_label_links as ll').innerJoin('labels as l', 'l.id', 'll.label_id').selectAll('l').select('ll.merge_request_id').where('ll.merge_request_id', 'in', ids).orderBy('l.title').orderBy('l.id').execute(),
    none ? [] : pageFactsQuery(db, ids),
    none ? new Map<number, number>() : (mergeRequestHooks(deps).unresolvedThreads?.(db, ids) ?? Promise.resolve(new Map<number, number>())),
  ]);
  const projectsById = new Map(projects.map((project) => [Number(project.id), project as ProjectRow]));
  // Assignees and reviewers in the order they were added (then by user id), as the entity lists them.
  const added = people.filter((row) => row.kind !== 'user').sort((a, b) => Number(a.added_at) - Number(b.added_at) || Number(a.id) - Number(b.id));
  const assigneesOf = grouped(added.filter((row) => row.kind === 'assignee'), (row) => Number(row.merge_request_id));
  const reviewersOf = grouped(added.filter((row) => row.kind === 'reviewer'), (row) => Number(row.merge_request_id));
  const labelsOf = grouped(labels, (row) => Number(row.merge_request_id));
  const factsOf = new Map(facts.map((row) => [Number(row.mr_id), row]));
  const diffOf = (mr: MergeRequestRow): MergeRequestDiffRow | null => {
    const row = factsOf.get(Number(mr.id));
    if (!row || row.id === null || mr.latest_merge_request_diff_id === null) return null;
    const { mr_id: _, notes_count: _n, approvals_count: _a, upvotes: _u, downvotes: _d, time_spent: _t, ...diff } = row;
    return diff as MergeRequestDiffRow;
  };
  const pipelines = await headPipelines(db, rows.flatMap((row) => {
    const head = diffOf(row)?.head_commit_sha;
    if (!head || row.source_project_id === null) return [];
    const projectIds = [...new Set([Number(row.source_project_id), Number(row.target_project_id)])];
    return [{ key: Number(row.id), projectIds, sha: head, refs: [row.source_branch, `refs/merge-requests/${row.iid}/head`, `refs/merge-requests/${row.iid}/merge`] }];
  }));
  const users: Users = new Map(people.map((row) => [Number(row.id), { id: Number(row.id), username: row.username, name: row.name, state: row.state, avatar: row.avatar }]));
  const pipelineUserIds = [...pipelines.values()].map((head) => head.pipeline.user_id).filter((id) => id !== null && !users.has(Number(id)));
  const [pipelineUsers, milestones, collaborating] = await Promise.all([
    usersById(deps.db, pipelineUserIds),
    milestonesOf(deps, rows, projectsById),
    collaborationAllowed(deps, rows, projectsById),
  ]);
  for (const [id, user] of pipelineUsers) users.set(id, user);
  return {
    links: (mr) => {
      const id = Number(mr.id);
      const target = projectsById.get(Number(mr.target_project_id))!;
      const head = pipelines.get(id);
      const facts: MergeFacts = {
        unresolvedThreads: unresolved.get(id) ?? 0,
        discussionsMustBeResolved: Number(target.only_allow_merge_if_all_discussions_are_resolved) === 1,
        approvalsLeft: Math.max(0, Number(target.approvals_before_merge) - Number(factsOf.get(id)?.approvals_count ?? 0)),
        ciRequired: Number(target.only_allow_merge_if_pipeline_succeeds) === 1 || Number(mr.merge_when_pipeline_succeeds) === 1,
        skippedPasses: Number(target.allow_merge_on_skipped_pipeline) === 1,
        pipelineStatus: head?.pipeline.status ?? null,
      };
      return {
        users,
        target,
        labels: (labelsOf.get(id) ?? []).map(({ merge_request_id: _, ...label }) => label as LabelRow),
        assigneeIds: (assigneesOf.get(id) ?? []).map((row) => Number(row.id)),
        reviewerIds: (reviewersOf.get(id) ?? []).map((row) => Number(row.id)),
        milestone: mr.milestone_id === null ? null : (milestones.get(Number(mr.milestone_id)) ?? null),
        notesCount: Number(factsOf.get(id)?.notes_count ?? 0),
        votes: { upvotes: Number(factsOf.get(id)?.upvotes ?? 0), downvotes: Number(factsOf.get(id)?.downvotes ?? 0) },
        latestDiff: diffOf(mr),
        timeSpent: Number(factsOf.get(id)?.time_spent ?? 0),
        facts,
        headPipeline: head ? { ...head, projectPath: projectsById.get(Number(head.pipeline.project_id))?.full_path ?? target.full_path } : null,
        allowCollaboration: collaborating.has(id),
        from: options.from,
        withLabelsDetails: options.withLabelsDetails,
      };
    },
  };
}

export async function presentMergeRequests(deps: Deps, rows: MergeRequestRow[], options: { from: ReferenceFrom; withLabelsDetails?: boolean; view?: string }) {
  if (options.view === 'simple') {
    const projects = await loadTargets(deps, rows);
    return rows.map((row) => mergeRequestSimpleEntity(deps.config.baseUrl, row, projects.get(Number(row.target_project_id))!));
  }
  const page = await loadLinks(deps, rows, options);
  return rows.map((row) => mergeRequestBasicEntity(deps.config.baseUrl, row, page.links(row)));
}

async function loadTargets(deps: Deps, rows: MergeRequestRow[]): Promise<Map<number, ProjectRow>> {
  const ids = [...new Set(rows.map((row) => Number(row.target_project_id)))];
  if (ids.length === 0) return new Map();
  const projects = await deps.db.selectFrom('projects').selectAll().where('id', 'in', ids).execute();
  return new Map(projects.map((project) => [Number(project.id), project as ProjectRow]));
}
