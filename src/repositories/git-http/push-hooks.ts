// What a push to a project's repository adds to git http-backend: receive-pack's pre-receive hook
// asks protected-branches/check-push.ts about the ref updates before any ref moves; once the push
// has succeeded, its events are recorded and a default branch it created is protected.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { listRefs } from '../git.js';
import { recordPushEvents } from '../record-push-events.js';
import { answerHook, hookEnvironment, hooksDirectory } from '../protected-branches/pre-receive-hook.js';
import { checkPush } from '../protected-branches/check-push.js';
import { protectDefaultBranch } from '../protected-branches/protect-default-branch.js';
import type { CgiRequest } from './cgi.js';

export interface ProjectPush {
  project: ProjectRow;
  user: AuthUser;
  repoPath: string;
  /** The refs before the push. */
  before: Map<string, string>;
}

export async function pushHooks(deps: Deps, request: FastifyRequest, push: ProjectPush): Promise<Pick<CgiRequest, 'env' | 'channel'>> {
  const dir = await hooksDirectory(deps.config.dataDir);
  const emptyRepository = ![...push.before.keys()].some((ref) => ref.startsWith('refs/heads/'));
  const check = { project: push.project, user: push.user, repoPath: push.repoPath, emptyRepository };
  return {
    env: hookEnvironment(dir),
    channel: (socket) =>
      answerHook(
        socket,
        (asked) => checkPush(deps, check, asked.quarantine, asked.updates),
        (error) => request.log.error({ err: error }, 'checking a push against protected branches failed'),
      ),
  };
}

export async function afterPush(deps: Deps, push: ProjectPush): Promise<void> {
  const projectId = Number(push.project.id);
  const after = await listRefs(push.repoPath);
  await recordPushEvents(deps, { projectId, authorId: push.user.id, repoPath: push.repoPath, before: push.before, after });
  const head = `refs/heads/${push.project.default_branch}`;
  if (!push.before.has(head) && after.has(head)) await protectDefaultBranch(deps, projectId, push.project.default_branch);
}
