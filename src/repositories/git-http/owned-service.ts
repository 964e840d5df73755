// What runs around git for a repository whose owner decides who pushes (owned-repository.ts, a
// snippet's), over HTTP and SSH alike: a fetch runs git on the repository as it is; a push gets the
// same pre-receive hook as a project's (protected-branches/pre-receive-hook.ts), whose question the
// owner answers (checkPush); a push holds the container's push lease (a storage move waits for it,
// and refuses the push while it moves the repository); once git exited the owner hears of it
// (pushed) and follows the repository.
import { join } from 'node:path';
import type { Deps } from '../../platform/deps.js';
import { answerHook, hookEnvironment, hooksDirectory } from '../protected-branches/pre-receive-hook.js';
import type { GitActor } from './git-access.js';
import type { GitServiceSetup } from './git-service.js';
import { GIT_MESSAGES } from '../git-messages.js';
import { beginPush, endPush } from '../push-leases.js';
import type { OwnedGitRepository } from './owned-repository.js';

/** Prepare `repository` for a fetch or (`receiving`) a push by `actor`, allowed already. */
export async function prepareOwnedGitService(deps: Deps, repository: OwnedGitRepository, actor: GitActor, receiving: boolean, onError: (error: unknown, what: string) => void): Promise<GitServiceSetup> {
  const pusher = receiving && actor.kind === 'user' ? actor.user.id : null;
  // A push holds a lease that a starting storage move waits for, taken before the owner's own
  // writes (open), and is refused once a move holds the repository (push-leases.ts).
  let leaseId: number | null = null;
  if (pusher !== null && repository.container) {
    const lease = await beginPush(deps, repository.container);
    if (lease.readOnly) return { ok: false, message: GIT_MESSAGES.readOnly };
    leaseId = lease.leaseId;
  }
  const letGo = async () => {
    if (leaseId !== null) await endPush(deps, leaseId);
    leaseId = null;
  };
  let opened: { shardPath: string; diskPath: string };
  try {
    opened = await repository.open(pusher !== null);
  } catch (error) {
    await letGo();
    throw error;
  }
  const { shardPath, diskPath } = opened;
  const repoPath = join(shardPath, diskPath);
  if (pusher === null) {
    const nothing = async () => {};
    return { ok: true, service: { shardPath, diskPath, repoPath, env: {}, finish: nothing, release: nothing } };
  }
  let done = false;
  const end = async (succeeded: boolean) => {
    if (done) return;
    done = true;
    await repository.pushed(pusher, succeeded).catch((error: unknown) => onError(error, 'following a push failed'));
    await letGo();
  };
  const dir = await hooksDirectory(deps.config.dataDir).catch(async (error: unknown) => {
    await end(false);
    throw error;
  });
  return {
    ok: true,
    service: {
      shardPath,
      diskPath,
      repoPath,
      env: hookEnvironment(dir),
      channel: (socket) => answerHook(socket, { decide: (asked) => repository.checkPush(repoPath, asked.quarantine, asked.updates) }, (error) => onError(error, 'checking a push failed')),
      finish: (exitCode) => end(exitCode === 0),
      release: () => end(false),
    },
  };
}
