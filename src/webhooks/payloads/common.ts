// The pieces every webhook payload shares (GitLab's hook_attrs of projects, users and repositories).
import type { Deps } from '../../platform/deps.js';
import { avatarUrl, projectWebUrl } from '../../accounts/api.js';
import { findCommit, readableRepository, type CommitObject } from '../../repositories/api.js';
import { parseStored } from '../../platform/db/stored-json.js';

const VISIBILITY_LEVEL: Record<string, number> = { private: 0, internal: 10, public: 20 };

export type ProjectHookRow = { id: number; name: string; path: string; full_path: string; description: string; visibility: string; default_branch: string; avatar: string | null; namespace_name: string; settings: string | null };

export async function projectForHook(deps: Deps, projectId: number): Promise<ProjectHookRow | undefined> {
  return deps.db
    .selectFrom('projects')
    .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .select(['projects.id', 'projects.name', 'projects.path', 'projects.full_path', 'projects.description', 'projects.visibility', 'projects.default_branch', 'projects.avatar', 'projects.settings', 'namespaces.name as namespace_name'])
    .where('projects.id', '=', projectId)
    .executeTakeFirst() as Promise<ProjectHookRow | undefined>;
}

export function visibilityLevel(visibility: string): number {
  return VISIBILITY_LEVEL[visibility] ?? 0;
}

function urls(deps: Deps, project: ProjectHookRow) {
  const web = projectWebUrl(deps.config.baseUrl, project.full_path);
  return { web, ssh: `${deps.config.sshUrlPrefix}${project.full_path}.git`, http: `${web}.git` };
}

/** GitLab's Project#hook_attrs. */
export function projectAttrs(deps: Deps, project: ProjectHookRow) {
  const { web, ssh, http } = urls(deps, project);
  return {
    id: Number(project.id),
    name: project.name,
    description: project.description,
    web_url: web,
    avatar_url: project.avatar ? `${deps.config.baseUrl}/uploads/-/system/project/avatar/${project.id}/${project.avatar}` : null,
    git_ssh_url: ssh,
    git_http_url: http,
    namespace: project.namespace_name,
    visibility_level: visibilityLevel(project.visibility),
    path_with_namespace: project.full_path,
    default_branch: project.default_branch,
    // As set (null when the project uses the default `.gitlab-ci.yml`), as GitLab's hook_attrs show it.
    ci_config_path: (parseStored(project.settings).ci_config_path as string | null | undefined) ?? null,
    homepage: web,
    url: ssh,
    ssh_url: ssh,
    http_url: http,
  };
}

/** The `repository` of issue, note and deployment hooks. */
export function repositoryAttrs(deps: Deps, project: ProjectHookRow) {
  const { web, ssh } = urls(deps, project);
  return { name: project.name, url: ssh, description: project.description, homepage: web };
}

/** The `repository` of push hooks: with the clone URLs and visibility level. */
export function pushRepositoryAttrs(deps: Deps, project: ProjectHookRow) {
  const { ssh, http } = urls(deps, project);
  return { ...repositoryAttrs(deps, project), git_http_url: http, git_ssh_url: ssh, visibility_level: visibilityLevel(project.visibility) };
}

export type UserHookRow = { id: number; name: string; username: string; email: string; avatar: string | null };

export async function usersForHook(deps: Deps, ids: Array<number | null>): Promise<Map<number, UserHookRow>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null).map(Number))];
  if (wanted.length === 0) return new Map();
  const rows = await deps.db.selectFrom('users').select(['id', 'name', 'username', 'email', 'avatar']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [Number(row.id), { ...row, id: Number(row.id) }]));
}

/** GitLab's User#hook_attrs (the e-mail is the public one; Kiln answers the primary address as GitLab's `[REDACTED]` is for others' hooks only). */
export function userAttrs(deps: Deps, user: UserHookRow | undefined) {
  if (!user) return null;
  return { id: user.id, name: user.name, username: user.username, avatar_url: avatarUrl(deps.config.baseUrl, user), email: user.email };
}

export const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());
/** GitLab's hook timestamps: `2026-11-22 08:00:00 UTC`. */
export const hookTime = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));

export const avatarOf = (deps: Deps, user: UserHookRow) => avatarUrl(deps.config.baseUrl, user);

/** The label columns a hook shows. */
export interface LabelHookRow {
  id: number | string;
  title: string;
  color: string;
  project_id: number | string | null;
  group_id: number | string | null;
  description: string | null;
  created_at: number | null;
  updated_at: number | null;
}

/** A label as issue and merge request hooks show it (GitLab's Label#hook_attrs). */
export function labelAttrs(label: LabelHookRow) {
  return {
    id: Number(label.id),
    title: label.title,
    color: label.color,
    project_id: label.project_id === null ? null : Number(label.project_id),
    created_at: hookTime(label.created_at),
    updated_at: hookTime(label.updated_at),
    template: false,
    description: label.description,
    type: label.project_id === null ? 'GroupLabel' : 'ProjectLabel',
    group_id: label.group_id === null ? null : Number(label.group_id),
  };
}

/** The commit `sha` of the project, or null when the repository or the commit is gone. */
export async function commitForHook(deps: Deps, projectId: number, sha: string | null): Promise<CommitObject | null> {
  if (!sha) return null;
  const repoPath = await readableRepository(deps, { id: projectId } as never);
  return repoPath ? findCommit(repoPath, sha) : null;
}

/** GitLab's Commit#hook_attrs (without the changed paths, which only push hooks list). */
export function commitAttrs(projectWebUrl: string, commit: CommitObject) {
  return {
    id: commit.id,
    message: commit.message,
    title: commit.message.split('\n')[0],
    timestamp: new Date(commit.committer.seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
    url: `${projectWebUrl}/-/commit/${commit.id}`,
    author: { name: commit.author.name, email: commit.author.email },
  };
}
