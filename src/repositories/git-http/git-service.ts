// What runs around a git service once access is decided, for HTTP (git http-backend) and SSH (git
// upload-pack, receive-pack, upload-archive) alike: a push to a group wiki holds a lease that a starting
// storage move waits for; the repository is created on first use; a push to a project gets the
// pre-receive hook (protected branches) and, once it succeeded, its events; a push that moved a
// wiki's HEAD branch is told to the wikis (repositoryHooks' wikiPushed).
import type { Duplex } from 'node:stream';
import type { Deps } from '../../platform/deps.js';
import { ensureRepository } from '../ensure-repository.js';
import { findShard } from '../shards.js';
import { listRefs } from '../git.js';
import { beginPush, endPush } from '../push-leases.js';
import { GIT_MESSAGES, type GitActor, type GitTarget } from './git-access.js';
import { afterPush, pushHooks, type ProjectPush } from './push-hooks.js';
import { repositoryHooks } from '../hooks.js';
import { wikiHead } from '../wiki-repository.js';

export interface PreparedGitService {
  /** The shard's directory and the repository's path below it (http-backend's GIT_PROJECT_ROOT and PATH_INFO). */
  shardPath: string;
  diskPath: string;
  repoPath: string;
  /** Added to git's environment (the hooks of a push). */
  env: Record<string, string>;
  /** Handed the socket git's pre-receive hook talks on (file descriptor 3). */
  channel?: (socket: Duplex) => void;
  /** After git exited: push events and branch protection of a successful push, then the lease goes. */
  finish(exitCode: number): Promise<void>;
  /** Let go of the lease without finishing (git never ran). */
  release(): Promise<void>;
}

export type GitServiceSetup = { ok: true; service: PreparedGitService } | { ok: false; message: string };

function authorOf(actor: GitActor): number | null {
  if (actor.kind === 'user') return actor.user.id;
  if (actor.kind === 'deploy_key') return actor.userId;
  return null;
}

/**
 * Prepare `target`'s repository for a fetch or (`receiving`) a push by `actor`. `onError` hears of a
 * failure of the hook's check or of the after-push work, which never fails the transfer itself.
 */
export async function prepareGitService(deps: Deps, target: GitTarget, actor: GitActor, receiving: boolean, onError: (error: unknown, what: string) => void): Promise<GitServiceSetup> {
  let leaseId: number | null = null;
  if (receiving && target.kind === 'group') {
    const lease = await beginPush(deps, { type: 'group', id: target.id });
    if (lease.readOnly) return { ok: false, message: GIT_MESSAGES.readOnly };
    leaseId = lease.leaseId;
  }
  const release = async () => {
    if (leaseId !== null) await endPush(deps, leaseId);
    leaseId = null;
  };
  try {
    const repository = await ensureRepository(deps, { type: target.kind, id: target.id, defaultBranch: target.defaultBranch });
    const shard = findShard(deps.config.storages, repository.row.shard);
    if (!shard) throw new Error(`storage shard "${repository.row.shard}" is not configured`);
    let push: ProjectPush | null = null;
    let hooks: Pick<PreparedGitService, 'env' | 'channel'> = { env: {} };
    if (receiving && target.kind === 'project' && target.project && actor.kind !== 'anonymous') {
      const user = actor.kind === 'user' ? actor.user : null;
      push = { project: target.project, user, authorId: authorOf(actor), repoPath: repository.path, before: await listRefs(repository.path), onlyBranches: target.onlyBranches };
      hooks = await pushHooks(deps, push, (error) => onError(error, 'checking a push against protected branches failed'));
    }
    const wikiPusher = receiving && (target.kind === 'project_wiki' || target.kind === 'group') ? authorOf(actor) : null;
    const wikiBefore = wikiPusher !== null ? (await wikiHead(repository.path)).commit : null;
    const finish = async (exitCode: number) => {
      try {
        if (push && exitCode === 0) await afterPush(deps, push);
        if (wikiPusher !== null && exitCode === 0 && target.kind !== 'project') {
          const after = (await wikiHead(repository.path)).commit;
          if (after && after !== wikiBefore) await repositoryHooks(deps).wikiPushed?.({ type: target.kind, id: target.id }, wikiPusher, wikiBefore, after);
        }
      } catch (error) {
        onError(error, 'recording push events failed');
      } finally {
        await release();
      }
    };
    return { ok: true, service: { shardPath: shard.path, diskPath: repository.row.disk_path, repoPath: repository.path, env: hooks.env, channel: hooks.channel, finish, release } };
  } catch (error) {
    await release();
    throw error;
  }
}
