// Search results as GitLab presents each scope: BasicProjectDetails, Issue, MergeRequestBasic,
// Milestone, UserBasic (accounts', issues', merge requests' and milestones' own entities); blobs are
// presented as found.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { projectEntity, userBasic, type UserRow } from '../accounts/api.js';
import { noteEntity, presentIssues, usersById } from '../issues/api.js';
import { milestoneEntity, type MilestoneRow } from '../milestones/api.js';
import { presentMergeRequests } from '../merge-requests/api.js';
import type { SearchWhere } from './finders.js';

async function projectsById(deps: Deps, ids: number[]): Promise<Map<number, ProjectRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await deps.db.selectFrom('projects').selectAll().where('id', 'in', unique).execute();
  return new Map(rows.map((row) => [Number(row.id), row]));
}

export async function presentProjects(deps: Deps, rows: ProjectRow[]) {
  const ids = [...new Set(rows.map((row) => Number(row.namespace_id)))];
  const namespaces = ids.length ? await deps.db.selectFrom('namespaces').selectAll().where('id', 'in', ids).execute() : [];
  const byId = new Map(namespaces.map((namespace) => [Number(namespace.id), namespace]));
  return rows.map((row) => projectEntity(deps.config, row, byId.get(Number(row.namespace_id))!));
}

export function presentIssueRows(deps: Deps, rows: Parameters<typeof presentIssues>[1]) {
  return presentIssues(deps, rows);
}

/** References relative to the searched project (`!7`), full elsewhere, as the merge request lists. */
export function presentMergeRequestRows(deps: Deps, rows: Parameters<typeof presentMergeRequests>[1], where: SearchWhere) {
  const from = where.level === 'project' ? { projectId: Number(where.project.project.id), namespaceId: Number(where.project.project.namespace_id) } : null;
  return presentMergeRequests(deps, rows, { from });
}

export async function presentMilestones(deps: Deps, rows: MilestoneRow[]) {
  const projects = await projectsById(deps, rows.map((row) => Number(row.project_id)));
  const now = deps.clock.now();
  return rows.map((row) => milestoneEntity(deps.config.baseUrl, row, { kind: 'project', fullPath: projects.get(Number(row.project_id))!.full_path }, now));
}

export function presentUsers(deps: Deps, rows: UserRow[]) {
  return rows.map((row) => userBasic(deps.config.baseUrl, row));
}

type NoteRow = Parameters<typeof noteEntity>[1] & { noteable_iid: number };

/** GitLab's Note entity, with the issue's iid as noteable_iid. */
export async function presentNotes(deps: Deps, rows: NoteRow[]) {
  const users = await usersById(deps.db, rows.map((row) => Number(row.author_id)));
  return rows.map((row) => noteEntity(deps.config.baseUrl, row, users, Number(row.noteable_iid)));
}
