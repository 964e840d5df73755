// What runs around git for a repository whose owner decides who pushes (owned-repository.ts, a
// snippet's), over HTTP and SSH alike: a fetch runs git on the repository as it is; a push gets the
// same pre-receive hook as a project's (protected-branches/pre-receive-hook.ts), whose question the
// owner answers (checkPush), and once git exited the owner hears of it (pushed) and follows the
// repository.
import { join } from 'node:path';
import type { Deps } from '../../platform/deps.js';
import { answerHook, hookEnvironment, hooksDirectory } from '../protected-branches/pre-receive-hook.js';
import type { GitActor } from './git-access.js';
import type { PreparedGitService } from './git-service.js';
import type { OwnedGitRepository } from './owned-repository.js';

/** Prepare `repository` for a fetch or (`receiving`) a push by `actor`, allowed already. */
export async function prepareOwnedGitService(deps: Deps, repository: OwnedGitRepository, actor: GitActor, receiving: boolean, onError: (error: unknown, what: string) => void): Promise<PreparedGitService> {
  const pusher = receiving && actor.kind === 'user' ? actor.user.id : null;
  const { shardPath, diskPath } = await repository.open(pusher !== null);
  const repoPath = join(shardPath, diskPath);
  if (pusher === null) {
    const nothing = async () => {};
    return { shardPath, diskPath, repoPath, env: {}, finish: nothing, release: nothing };
  }
  let done = false;
  const end = async (succeeded: boolean) => {
    if (done) return;
    done = true;
    await repository.pushed(pusher, succeeded).catch((error: unknown) => onError(error, 'following a push failed'));
  };
  const dir = await hooksDirectory(deps.config.dataDir).catch(async (error: unknown) => {
    await end(false);
    throw error;
  });
  return {
    shardPath,
    diskPath,
    repoPath,
    env: hookEnvironment(dir),
    channel: (socket) => answerHook(socket, { decide: (asked) => repository.checkPush(repoPath, asked.quarantine, asked.updates) }, (error) => onError(error, 'checking a push failed')),
    finish: (exitCode) => end(exitCode === 0),
    release: () => end(false),
  };
}
