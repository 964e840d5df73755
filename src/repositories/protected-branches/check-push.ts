// Decide a push's ref updates against the project's protected branches, at the moment receive-pack
// asks (its pre-receive hook): the rules and the pusher's role are read then, and fast-forwards are
// computed in the push's quarantine, where the new commits are until the refs move.
import { execFile } from 'node:child_process';
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/index.js';
import { projectAccess } from '../../accounts/api.js';
import { GIT_ENV } from '../git.js';
import { projectRules } from './finder.js';
import { refusePush, type RefUpdate } from './branch-check.js';

export interface PushToCheck {
  project: ProjectRow;
  /** Null for a deploy key or token: it holds no role, so protected branches refuse it. */
  user: AuthUser | null;
  repoPath: string;
  /** The repository had no branch before the push. */
  emptyRepository: boolean;
}

/** Where receive-pack keeps the pushed objects until the refs move (its hook environment). */
export interface Quarantine {
  objectDirectory: string;
  alternateObjectDirectories: string;
}

/** `git merge-base --is-ancestor`: exit 0 yes, 1 no, anything else (an unknown object) is an error. */
function isAncestor(repoPath: string, quarantine: Quarantine, oldId: string, newId: string): Promise<boolean> {
  const env: Record<string, string> = { ...GIT_ENV, GIT_DIR: repoPath };
  if (quarantine.objectDirectory) env.GIT_OBJECT_DIRECTORY = quarantine.objectDirectory;
  if (quarantine.alternateObjectDirectories) env.GIT_ALTERNATE_OBJECT_DIRECTORIES = quarantine.alternateObjectDirectories;
  return new Promise((resolve, reject) => {
    execFile('git', ['merge-base', '--is-ancestor', oldId, newId], { env }, (error, _stdout, stderr) => {
      if (!error) return resolve(true);
      if ((error as { code?: unknown }).code === 1) return resolve(false);
      reject(new Error(`git merge-base --is-ancestor failed: ${stderr.trim() || error.message}`));
    });
  });
}

/** GitLab's empty_project_push_message (branch_check.rb): the first branch is for Maintainers to create. */
function emptyRepositoryMessage(deps: Deps, project: ProjectRow): string {
  return [
    '',
    `A default branch (e.g. ${project.default_branch}) does not yet exist for ${project.full_path}`,
    'Ask a project Owner or Maintainer to create a default branch:',
    '',
    `  ${deps.config.baseUrl}/${project.full_path}/-/project_members`,
    '',
  ].join('\n');
}

/** The refusal git shows the pusher, or null when every update may go ahead. */
export async function checkPush(deps: Deps, push: PushToCheck, quarantine: Quarantine, updates: readonly RefUpdate[]): Promise<string | null> {
  const { project, user } = push;
  if (!updates.some((update) => update.ref.startsWith('refs/heads/'))) return null;
  const now = deps.clock.now();
  // Administrators are not members: their role on a protected branch is their membership alone.
  const [rules, access, membership] = await Promise.all([
    projectRules(deps.db, Number(project.id)),
    projectAccess(deps.readCache, user, project, now),
    projectAccess(deps.readCache, user && { ...user, admin: false }, project, now),
  ]);
  return refusePush(updates, {
    defaultBranch: project.default_branch,
    emptyRepository: push.emptyRepository,
    rules,
    actor: { user, memberLevel: membership.level },
    canDeleteProtected: canOnProject({ user, level: access.level, visibility: project.visibility }, 'delete_protected_branch'),
    emptyRepositoryMessage: emptyRepositoryMessage(deps, project),
    isAncestor: (oldId, newId) => isAncestor(push.repoPath, quarantine, oldId, newId),
  });
}
