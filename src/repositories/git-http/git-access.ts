// Who may fetch from or push to a repository over git HTTP, asked as abilities (GitLab's
// Gitlab::GitAccess and GitAccessWiki): a project's code is fetched with `download_code` (Reporter for
// a private project, so its Guests cannot clone) and pushed with `push_code`; a group wiki is fetched
// with `download_wiki_code` and pushed with `create_wiki`. A token must also carry a repository scope.
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { canOnGroup, canOnProject, type PolicySubject } from '../../platform/auth/policies/index.js';
import { groupAccessLevel, projectAccess, findProjectRow } from '../../accounts/api.js';
import type { GitAuth } from './authenticate.js';

/** The texts git prints as `remote: …` (lib/gitlab/git_access.rb and git_access_wiki.rb, ERROR_MESSAGES). */
export const GIT_MESSAGES = {
  projectNotFound: "The project you were looking for could not be found or you don't have permission to view it.",
  download: 'You are not allowed to download code from this project.',
  authDownload: 'You are not allowed to download code.',
  pushCode: 'You are not allowed to push code to this project.',
  authUpload: 'You are not allowed to upload code.',
  writeToWiki: "You are not allowed to write to this project's wiki.",
} as const;

// Token scopes that admit git reads and pushes (GitLab: read_repository / write_repository, and api).
const READ_SCOPES = new Set(['api', 'read_api', 'read_repository', 'write_repository']);
const WRITE_SCOPES = new Set(['api', 'write_repository']);

export interface GitTarget {
  kind: 'group' | 'project';
  id: number;
  readOnly: boolean;
  defaultBranch: string;
  /** The project, for a project's repository. */
  project: ProjectRow | null;
  subject: PolicySubject;
}

export type GitAccessDecision =
  | { allowed: true; target: GitTarget }
  /** `challenge`: ask an anonymous client for credentials (401) rather than refuse. */
  | { allowed: false; challenge: true }
  | { allowed: false; challenge: false; status: 403 | 404; message: string };

async function findTarget(deps: Deps, path: string, user: AuthUser | null): Promise<GitTarget | null> {
  const now = deps.clock.now();
  if (path.endsWith('.wiki')) {
    const group = await deps.db.selectFrom('namespaces').selectAll().where('kind', '=', 'group').where('full_path_lower', '=', path.slice(0, -5).toLowerCase()).executeTakeFirst();
    if (!group) return null;
    const level = await groupAccessLevel(deps.reads, user, group, now);
    return { kind: 'group', id: Number(group.id), readOnly: group.read_only === 1, defaultBranch: 'main', project: null, subject: { user, level, visibility: group.visibility } };
  }
  const project = await findProjectRow(deps, path);
  if (!project) return null;
  const { level } = await projectAccess(deps.reads, user, project, now);
  return { kind: 'project', id: Number(project.id), readOnly: false, defaultBranch: project.default_branch, project, subject: { user, level, visibility: project.visibility, features: project } };
}

function refuse(status: 403 | 404, message: string): GitAccessDecision {
  return { allowed: false, challenge: false, status, message };
}

/** Decide a git HTTP request for `path` (`group.wiki` or `namespace/project`) by an authenticated or anonymous caller. */
export async function decideGitAccess(deps: Deps, path: string, auth: GitAuth, pushing: boolean): Promise<GitAccessDecision> {
  const user = auth.status === 'ok' ? auth.user : null;
  const target = await findTarget(deps, path, user);
  const wiki = target?.kind === 'group';
  const readable = target !== null && (wiki ? canOnGroup(target.subject, 'read_group') : canOnProject(target.subject, 'read_project'));
  if (!target || !readable) return user ? refuse(404, GIT_MESSAGES.projectNotFound) : { allowed: false, challenge: true };
  const scopes = auth.status === 'ok' ? auth.scopes : null;
  if (scopes && !scopes.some((scope) => READ_SCOPES.has(scope))) return refuse(403, GIT_MESSAGES.authDownload);
  const canDownload = wiki ? canOnGroup(target.subject, 'download_wiki_code') : canOnProject(target.subject, 'download_code');
  if (!canDownload) return user ? refuse(403, GIT_MESSAGES.download) : { allowed: false, challenge: true };
  if (!pushing) return { allowed: true, target };
  if (!user) return { allowed: false, challenge: true };
  if (scopes && !scopes.some((scope) => WRITE_SCOPES.has(scope))) return refuse(403, GIT_MESSAGES.authUpload);
  const canPush = wiki ? canOnGroup(target.subject, 'create_wiki') : canOnProject(target.subject, 'push_code');
  if (!canPush) return refuse(403, wiki ? GIT_MESSAGES.writeToWiki : GIT_MESSAGES.pushCode);
  return { allowed: true, target };
}
