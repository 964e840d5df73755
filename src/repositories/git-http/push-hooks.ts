// What a push to a project's repository adds to the git service: receive-pack's pre-receive hook asks
// protected-branches/check-push.ts about the ref updates before any ref moves; once the push has
// succeeded, its events are recorded and a default branch it created is protected. The post-receive
// hook prints what other features have to say about the moved refs (merge request links). The same
// for a push over HTTP and over SSH.
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { listRefs } from '../git.js';
import { recordPushEvents } from '../record-push-events.js';
import { answerHook, hookEnvironment, hooksDirectory } from '../protected-branches/pre-receive-hook.js';
import { checkPush } from '../protected-branches/check-push.js';
import { protectDefaultBranch } from '../protected-branches/protect-default-branch.js';
import type { CgiRequest } from './cgi.js';
import { repositoryHooks } from '../hooks.js';

export interface ProjectPush {
  project: ProjectRow;
  /** The pushing user; null for a deploy key or token (which push only to unprotected branches). */
  user: AuthUser | null;
  /** Who push events name: the user, or a deploy key's creator; null records none. */
  authorId: number | null;
  repoPath: string;
  /** The refs before the push. */
  before: Map<string, string>;
  /** A push through collaboration (git-access.ts): the only branches it may update. */
  onlyBranches?: string[];
}

export async function pushHooks(deps: Deps, push: ProjectPush, onError: (error: unknown) => void): Promise<{ env: Record<string, string>; channel: NonNullable<CgiRequest['channel']> }> {
  const dir = await hooksDirectory(deps.config.dataDir);
  const emptyRepository = ![...push.before.keys()].some((ref) => ref.startsWith('refs/heads/'));
  const check = { project: push.project, user: push.user, repoPath: push.repoPath, emptyRepository, onlyBranches: push.onlyBranches };
  return {
    env: hookEnvironment(dir),
    channel: (socket) => answerHook(socket, {
      // Protected refs first, then the LFS objects the pushed pointers name (lfs/push-check.ts).
      decide: async (asked) =>
        (await checkPush(deps, check, asked.quarantine, asked.updates)) ?? (await repositoryHooks(deps).checkPushedObjects?.(push.project, push.repoPath, asked.quarantine, asked.updates)) ?? null,
      after: async (updates) => (await repositoryHooks(deps).pushMessages?.(push.project, updates)) ?? [],
    }, onError),
  };
}

export async function afterPush(deps: Deps, push: ProjectPush): Promise<void> {
  const projectId = Number(push.project.id);
  const after = await listRefs(push.repoPath);
  if (push.authorId !== null) await recordPushEvents(deps, { projectId, authorId: push.authorId, repoPath: push.repoPath, before: push.before, after });
  const head = `refs/heads/${push.project.default_branch}`;
  if (!push.before.has(head) && after.has(head)) await protectDefaultBranch(deps, projectId, push.project.default_branch);
}
