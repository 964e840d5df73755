// Decide a push's ref updates against the project's protected branches and tags: Kiln's one git
// access decision, asked by receive-pack's pre-receive hook (HTTP and SSH) and by every ref the API
// and the pages move (repository-api/write-ref.ts). The rules and the pusher's role are read at that
// moment, and fast-forwards are computed in the push's quarantine, where the new commits are until
// the refs move.
import { execFile } from 'node:child_process';
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/index.js';
import { projectAccess } from '../../accounts/api.js';
import { GIT_ENV } from '../git.js';
import { GIT_MESSAGES } from '../git-messages.js';
import { projectRules } from './finder.js';
import { refuseBranchUpdate, type RefUpdate } from './branch-check.js';
import { projectTagRules } from './tag-finder.js';
import { refuseTagUpdate, TAG_PREFIX } from './tag-check.js';

export interface PushToCheck {
  project: ProjectRow;
  /** Null for a deploy key or token: it holds no role, so protected branches refuse it. */
  user: AuthUser | null;
  repoPath: string;
  /** The repository had no branch before the push. */
  emptyRepository: boolean;
  /** Written by the web interface or the API (GitLab's updated_from_web?): only tags ask it here. */
  fromWeb?: boolean;
  /** A push through collaboration into a fork: every other ref is refused as a push without push_code. */
  onlyBranches?: string[];
}

/** Where receive-pack keeps the pushed objects until the refs move (its hook environment). */
export interface Quarantine {
  objectDirectory: string;
  alternateObjectDirectories: string;
}

/** The environment that lets git read the quarantined objects beside the repository's own. */
export function quarantineEnv(quarantine: Quarantine): Record<string, string> {
  const env: Record<string, string> = {};
  if (quarantine.objectDirectory) env.GIT_OBJECT_DIRECTORY = quarantine.objectDirectory;
  if (quarantine.alternateObjectDirectories) env.GIT_ALTERNATE_OBJECT_DIRECTORIES = quarantine.alternateObjectDirectories;
  return env;
}

/** `git merge-base --is-ancestor`: exit 0 yes, 1 no, anything else (an unknown object) is an error. */
function isAncestor(repoPath: string, quarantine: Quarantine, oldId: string, newId: string): Promise<boolean> {
  const env: Record<string, string> = { ...GIT_ENV, GIT_DIR: repoPath, ...quarantineEnv(quarantine) };
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

/** The refusal git shows the pusher, or null when every update may go ahead; the first refusal refuses the whole push. */
export async function checkPush(deps: Deps, push: PushToCheck, quarantine: Quarantine, updates: readonly RefUpdate[]): Promise<string | null> {
  const { project, user } = push;
  if (push.onlyBranches) {
    const allowed = new Set(push.onlyBranches.map((branch) => `refs/heads/${branch}`));
    if (updates.some((update) => !allowed.has(update.ref))) return GIT_MESSAGES.pushCode;
  }
  const branches = updates.some((update) => update.ref.startsWith('refs/heads/'));
  const tags = updates.some((update) => update.ref.startsWith(TAG_PREFIX));
  if (!branches && !tags) return null;
  const now = deps.clock.now();
  // Administrators are not members: their role on a protected ref is their membership alone.
  const [rules, tagRules, access, membership] = await Promise.all([
    branches ? projectRules(deps.db, Number(project.id)) : [],
    tags ? projectTagRules(deps.db, Number(project.id)) : [],
    projectAccess(deps.reads, user, project, now),
    projectAccess(deps.reads, user && { ...user, admin: false }, project, now),
  ]);
  const subject = { user, level: access.level, visibility: project.visibility };
  const actor = { user, memberLevel: membership.level };
  const branchFacts = {
    defaultBranch: project.default_branch,
    emptyRepository: push.emptyRepository,
    rules,
    actor,
    canDeleteProtected: canOnProject(subject, 'delete_protected_branch'),
    emptyRepositoryMessage: emptyRepositoryMessage(deps, project),
    isAncestor: (oldId: string, newId: string) => isAncestor(push.repoPath, quarantine, oldId, newId),
  };
  const tagFacts = {
    defaultBranch: project.default_branch,
    rules: tagRules,
    actor,
    // A deploy key holds no role: git's own rules and the protected tags decide for it.
    canAdminTag: user ? canOnProject(subject, 'admin_tag') : null,
    isMaintainer: canOnProject(subject, 'delete_protected_tag'),
    fromWeb: push.fromWeb === true,
  };
  for (const update of updates) {
    const refusal = update.ref.startsWith(TAG_PREFIX) ? refuseTagUpdate(update, tagFacts) : await refuseBranchUpdate(update, branchFacts);
    if (refusal !== null) return refusal;
  }
  return null;
}
