// GitLab's Todo entity (lib/api/entities/todo.rb): the project as ProjectIdentity, the author as
// UserBasic, the target as the Issue or MergeRequest entity of the listings, its web_url as
// target_url, and the body: the comment that mentioned the user, else the target's title.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { isoTime } from '../platform/clock.js';
import { projectEntity, userBasic } from '../accounts/api.js';
import { presentIssues, usersById } from '../issues/api.js';
import { presentMergeRequests } from '../merge-requests/api.js';
import type { TodoRow } from './finder.js';

const PROJECT_IDENTITY = ['id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at'] as const;

export interface PresentedTarget {
  entity: Record<string, unknown> & { web_url: string; title: string };
  project: ProjectRow;
}

/** The targets of a page of to-dos, presented once each, keyed `Issue:12` / `MergeRequest:3`. */
export async function loadTargets(deps: Deps, rows: TodoRow[]): Promise<Map<string, PresentedTarget>> {
  const issueIds = [...new Set(rows.filter((row) => row.target_type === 'Issue').map((row) => Number(row.target_id)))];
  const mrIds = [...new Set(rows.filter((row) => row.target_type === 'MergeRequest').map((row) => Number(row.target_id)))];
  const issues = issueIds.length ? await deps.db.selectFrom('issues').selectAll().where('id', 'in', issueIds).execute() : [];
  const mrs = mrIds.length ? await deps.db.selectFrom('merge_requests').selectAll().where('id', 'in', mrIds).execute() : [];
  const projectIds = [...new Set([...issues.map((row) => Number(row.project_id)), ...mrs.map((row) => Number(row.target_project_id))])];
  const projects = projectIds.length ? await deps.db.selectFrom('projects').selectAll().where('id', 'in', projectIds).execute() as ProjectRow[] : [];
  const byId = new Map(projects.map((project) => [Number(project.id), project]));
  const targets = new Map<string, PresentedTarget>();
  const issueEntities = await presentIssues(deps, issues, { projects });
  issues.forEach((row, index) => targets.set(`Issue:${row.id}`, { entity: issueEntities[index] as PresentedTarget['entity'], project: byId.get(Number(row.project_id))! }));
  const mrEntities = await presentMergeRequests(deps, mrs, { from: null });
  mrs.forEach((row, index) => targets.set(`MergeRequest:${row.id}`, { entity: mrEntities[index] as unknown as PresentedTarget['entity'], project: byId.get(Number(row.target_project_id))! }));
  return targets;
}

export async function presentTodos(deps: Deps, rows: TodoRow[]) {
  const targets = await loadTargets(deps, rows);
  const users = await usersById(deps.db, rows.map((row) => Number(row.author_id)));
  const notes = await noteBodies(deps, rows.map((row) => row.note_id).filter((id): id is number => id !== null).map(Number));
  const namespaces = await namespacesOf(deps, [...targets.values()].map((target) => Number(target.project.namespace_id)));
  return rows.flatMap((row) => {
    const target = targets.get(`${row.target_type}:${row.target_id}`);
    const author = users.get(Number(row.author_id));
    if (!target || !author) return [];
    const namespace = namespaces.get(Number(target.project.namespace_id));
    const project = namespace ? projectEntity(deps.config, target.project, namespace) as Record<string, unknown> : null;
    return [{
      id: Number(row.id),
      project: project ? Object.fromEntries(PROJECT_IDENTITY.map((key) => [key, project[key]])) : null,
      author: userBasic(deps.config.baseUrl, author),
      action_name: row.action,
      target_type: row.target_type,
      target: target.entity,
      target_url: target.entity.web_url,
      body: (row.note_id !== null ? notes.get(Number(row.note_id)) : undefined) ?? target.entity.title,
      state: row.state,
      created_at: isoTime(row.created_at),
      updated_at: isoTime(row.updated_at),
    }];
  });
}

/** The text of the comments that mentioned the users, by note id. */
export async function noteBodies(deps: Deps, ids: number[]) {
  const rows = ids.length ? await deps.db.selectFrom('notes').select(['id', 'body']).where('id', 'in', [...new Set(ids)]).execute() : [];
  return new Map(rows.map((row) => [Number(row.id), row.body]));
}

async function namespacesOf(deps: Deps, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = unique.length ? await deps.db.selectFrom('namespaces').selectAll().where('id', 'in', unique).execute() : [];
  return new Map(rows.map((row) => [Number(row.id), row]));
}
