// Who may fetch from or push to a repository, over git HTTP and SSH alike (GitLab's Gitlab::GitAccess
// and GitAccessWiki, one decision for both transports): a project's code is fetched with
// `download_code` (Reporter for a private project, so its Guests cannot clone) and pushed with
// `push_code`; a wiki (a group's, or a project's at `<project>.wiki`) is fetched with `download_wiki_code`
// and pushed with `create_wiki` (a project's within its wiki_access_level). A token
// must also carry a repository scope. Deploy keys read the projects they are enabled on (and public
// ones) and push where they may write; deploy tokens read and write by their scopes the projects of
// their project or group. A container being moved refuses pushes.
import type { Deps } from '../../platform/deps.js';
import { isBlockedState, type AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { canOnGroup, canOnProject, type PolicySubject } from '../../platform/auth/policies/index.js';
import { groupAccessLevel, projectAccess, findProjectRow } from '../../accounts/api.js';
import { deployKeyOnProject } from '../../keys/api.js';
import { repositoryHooks } from '../hooks.js';
import { GIT_MESSAGES } from '../git-messages.js';
import type { OwnedGitRepository } from './owned-repository.js';
import { isReadOnly } from '../move-kinds.js';

export { GIT_MESSAGES };

// Token scopes that admit git reads and pushes (GitLab: read_repository / write_repository, and api).
const READ_SCOPES = new Set(['api', 'read_api', 'read_repository', 'write_repository']);
const WRITE_SCOPES = new Set(['api', 'write_repository']);

/** Who asks: the credential a transport resolved (HTTP Basic, an SSH key). */
export type GitActor =
  | { kind: 'anonymous' }
  /** `scopes`: the token's, or null for an account password or an SSH key (which carry every ability). */
  | { kind: 'user'; user: AuthUser; scopes: string[] | null; jobProjectId?: number }
  /** A deploy key; `userId` is its creator, who push events name. */
  | { kind: 'deploy_key'; keyId: number; userId: number | null }
  /** A deploy token of a project or of a group (then every project below it). */
  | { kind: 'deploy_token'; tokenId: number; projectId: number | null; groupPath: string | null; scopes: string[]; username: string };

export interface GitTarget {
  /** `project_wiki`: the wiki of `project` (GitLab's GitAccessWiki). */
  kind: 'group' | 'project' | 'project_wiki';
  id: number;
  readOnly: boolean;
  defaultBranch: string;
  /** The project, for a project's repository or wiki. */
  project: ProjectRow | null;
  subject: PolicySubject;
  /** The project's path as stored (a renamed project is found by its old path too). */
  fullPath: string;
  /**
   * A push allowed only through collaboration (an upstream maintainer pushing to a fork): the only
   * branches it may update. Absent when the pusher may push to the project as such.
   */
  onlyBranches?: string[];
}

export type GitAccessDecision =
  | { allowed: true; target: GitTarget }
  /** `challenge`: ask an anonymous client for credentials (401) rather than refuse. */
  | { allowed: false; challenge: true }
  | { allowed: false; challenge: false; status: 403 | 404; message: string };

function userOf(actor: GitActor): AuthUser | null {
  return actor.kind === 'user' ? actor.user : null;
}

async function findTarget(deps: Deps, path: string, user: AuthUser | null): Promise<GitTarget | null> {
  const now = deps.clock.now();
  if (path.endsWith('.wiki')) {
    const group = await deps.db.selectFrom('namespaces').selectAll().where('kind', '=', 'group').where('full_path_lower', '=', path.slice(0, -5).toLowerCase()).executeTakeFirst();
    if (group) {
      const level = await groupAccessLevel(deps.reads, user, group, now);
      return { kind: 'group', id: Number(group.id), readOnly: group.read_only === 1, defaultBranch: 'main', project: null, subject: { user, level, visibility: group.visibility, features: group }, fullPath: `${group.full_path}.wiki` };
    }
  }
  // Always a full path (`123.wiki` names no project by id).
  const wikiOf = path.endsWith('.wiki') && path.includes('/') ? await findProjectRow(deps, path.slice(0, -5)) : undefined;
  const project = wikiOf ?? (await findProjectRow(deps, path));
  if (!project) return null;
  const { level } = await projectAccess(deps.reads, user, project, now);
  const subject = { user, level, visibility: project.visibility, features: project };
  if (wikiOf) {
    return { kind: 'project_wiki', id: Number(project.id), readOnly: false, defaultBranch: 'main', project, subject, fullPath: `${project.full_path}.wiki` };
  }
  return { kind: 'project', id: Number(project.id), readOnly: false, defaultBranch: project.default_branch, project, subject, fullPath: project.full_path };
}

/** The abilities a fetch and a push of the target need, and the refusals that name it. */
function abilitiesOf(target: GitTarget): { download: boolean; push: boolean; downloadMessage: string; pushMessage: string } {
  if (target.kind === 'group') {
    return { download: canOnGroup(target.subject, 'download_wiki_code'), push: canOnGroup(target.subject, 'create_wiki'), downloadMessage: GIT_MESSAGES.downloadWiki, pushMessage: GIT_MESSAGES.writeToWiki };
  }
  if (target.kind === 'project_wiki') {
    return { download: canOnProject(target.subject, 'download_wiki_code'), push: canOnProject(target.subject, 'create_wiki'), downloadMessage: GIT_MESSAGES.downloadWiki, pushMessage: GIT_MESSAGES.writeToWiki };
  }
  return { download: canOnProject(target.subject, 'download_code'), push: canOnProject(target.subject, 'push_code'), downloadMessage: GIT_MESSAGES.download, pushMessage: GIT_MESSAGES.pushCode };
}

function refuse(status: 403 | 404, message: string): Extract<GitAccessDecision, { allowed: false }> {
  return { allowed: false, challenge: false, status, message };
}

/** A blocked or deactivated account's refusal, or null. */
function accountRefusal(deps: Deps, user: AuthUser | null): Extract<GitAccessDecision, { allowed: false }> | null {
  if (user && isBlockedState(user.state)) return { allowed: false, challenge: false, status: 403, message: GIT_MESSAGES.blocked };
  if (user?.state === 'deactivated') return { allowed: false, challenge: false, status: 403, message: `${GIT_MESSAGES.deactivated} ${deps.config.baseUrl}` };
  return null;
}

/**
 * A fetch of or a push to a repository that is neither a project's nor a group wiki (a snippet's),
 * whose owner decides who reads and writes it (GitLab's GitAccessSnippet): users only (deploy keys
 * and tokens belong to projects), a token with a repository scope (a push: a writing one), an
 * anonymous caller challenged where it may not read or pushes.
 */
export async function decideOwnedGitAccess(
  deps: Deps,
  actor: GitActor,
  pushing: boolean,
  repository: Pick<OwnedGitRepository, 'readable' | 'writable' | 'pushRefusal' | 'container'>,
): Promise<{ allowed: true } | Extract<GitAccessDecision, { allowed: false }>> {
  const user = userOf(actor);
  const refusal = accountRefusal(deps, user);
  if (refusal) return refusal;
  if (actor.kind === 'deploy_key' || actor.kind === 'deploy_token') return refuse(404, GIT_MESSAGES.projectNotFound);
  if (!(await repository.readable(user))) return user ? refuse(404, GIT_MESSAGES.projectNotFound) : { allowed: false, challenge: true };
  const scopes = actor.kind === 'user' ? actor.scopes : null;
  if (scopes && !scopes.some((scope) => READ_SCOPES.has(scope))) return refuse(403, GIT_MESSAGES.authDownload);
  if (!pushing) return { allowed: true };
  if (!user) return { allowed: false, challenge: true };
  if (scopes && !scopes.some((scope) => WRITE_SCOPES.has(scope))) return refuse(403, GIT_MESSAGES.authUpload);
  if (!(await repository.writable(user))) return refuse(403, repository.pushRefusal);
  // Told early (the refs advertisement), as for a group's wiki; the push's lease decides for good.
  if (repository.container && (await isReadOnly(deps.db, repository.container, repository.container.id))) return refuse(403, GIT_MESSAGES.readOnly);
  return { allowed: true };
}

/** What a credential that is no user (a deploy key or token) may do on the target. */
async function credentialAccess(deps: Deps, actor: Extract<GitActor, { kind: 'deploy_key' | 'deploy_token' }>, target: GitTarget): Promise<{ read: boolean; write: boolean }> {
  if (target.kind !== 'project' || !target.project) return { read: false, write: false };
  if (actor.kind === 'deploy_key') {
    const link = await deployKeyOnProject(deps, actor.keyId, target.id);
    return { read: link !== null, write: link?.canPush === true };
  }
  const ours = actor.projectId === target.id || (actor.groupPath !== null && target.project.full_path.toLowerCase().startsWith(`${actor.groupPath.toLowerCase()}/`));
  return { read: ours && actor.scopes.includes('read_repository'), write: ours && actor.scopes.includes('write_repository') };
}

/**
 * Decide a git request for `path` (`group.wiki` or `namespace/project`). Over HTTP an anonymous
 * caller may be challenged for credentials; over SSH there is always a key.
 */
export async function decideGitAccess(deps: Deps, path: string, actor: GitActor, pushing: boolean): Promise<GitAccessDecision> {
  const user = userOf(actor);
  const refusal = accountRefusal(deps, user);
  if (refusal) return refusal;
  const target = await findTarget(deps, path, user);
  if (actor.kind === 'deploy_key' || actor.kind === 'deploy_token') return decideForCredential(deps, actor, target, pushing);
  let readable = target !== null && (target.kind === 'group' ? canOnGroup(target.subject, 'read_group') : canOnProject(target.subject, 'read_project'));
  // A CI job token reaches another project only where that project's job token scope allows it.
  if (readable && actor.kind === 'user' && actor.jobProjectId !== undefined && target?.kind === 'project' && target.project) {
    readable = (await repositoryHooks(deps).jobTokenReaches?.(actor.jobProjectId, Number(target.project.id))) ?? false;
  }
  if (!target || !readable) return user ? refuse(404, GIT_MESSAGES.projectNotFound) : { allowed: false, challenge: true };
  const scopes = actor.kind === 'user' ? actor.scopes : null;
  if (scopes && !scopes.some((scope) => READ_SCOPES.has(scope))) return refuse(403, GIT_MESSAGES.authDownload);
  const may = abilitiesOf(target);
  if (!may.download) return user ? refuse(403, may.downloadMessage) : { allowed: false, challenge: true };
  if (!pushing) return { allowed: true, target };
  if (!user) return { allowed: false, challenge: true };
  if (scopes && !scopes.some((scope) => WRITE_SCOPES.has(scope))) return refuse(403, GIT_MESSAGES.authUpload);
  if (target.readOnly && may.push) return refuse(403, GIT_MESSAGES.readOnly);
  if (may.push) return { allowed: true, target };
  // GitLab's push check: push_code, or a branch of this fork that allows collaboration (the ref check
  // then keeps the push to those branches).
  const onlyBranches = target.kind === 'project' && target.project ? ((await repositoryHooks(deps).collaborationBranches?.(target.project, user)) ?? []) : [];
  if (onlyBranches.length === 0) return refuse(403, may.pushMessage);
  if (target.readOnly) return refuse(403, GIT_MESSAGES.readOnly);
  return { allowed: true, target: { ...target, onlyBranches } };
}

/**
 * GitAccess for deploy keys and deploy tokens (can_read_project?, check_download_access!,
 * check_push_access!): they read the projects they belong to, and any public project, as a Guest would.
 */
async function decideForCredential(deps: Deps, actor: Extract<GitActor, { kind: 'deploy_key' | 'deploy_token' }>, target: GitTarget | null, pushing: boolean): Promise<GitAccessDecision> {
  const access = target ? await credentialAccess(deps, actor, target) : { read: false, write: false };
  const publicCode = target !== null && abilitiesOf(target).download;
  const ours = target !== null && (access.read || access.write);
  if (!target || (!ours && !publicCode)) return refuse(404, GIT_MESSAGES.projectNotFound);
  if (actor.kind === 'deploy_token' && !pushing && !access.read && !publicCode) return refuse(403, GIT_MESSAGES.authDownload);
  if (!pushing) return { allowed: true, target };
  if (target.readOnly) return refuse(403, GIT_MESSAGES.readOnly);
  if (actor.kind === 'deploy_key' && !access.write) return refuse(403, GIT_MESSAGES.deployKeyUpload);
  if (actor.kind === 'deploy_token' && !access.write) return refuse(403, GIT_MESSAGES.authUpload);
  return { allowed: true, target };
}
