// A repository that is no project's or group's, whose owner decides who reads and who pushes (a
// snippet's): what git over HTTP (serve-git.ts) and over SSH ask of it, and what its push runs
// (owned-service.ts).
import type { AuthUser } from '../../platform/auth/principal.js';
import type { RefUpdate } from '../protected-branches/branch-check.js';
import type { Quarantine } from '../protected-branches/check-push.js';
import type { MovableContainer } from '../push-leases.js';

export interface OwnedGitRepository {
  readable(user: AuthUser | null): Promise<boolean>;
  /** Whether `user` (who reads it) may push to it. */
  writable(user: AuthUser): Promise<boolean>;
  /** What git prints to a push by a reader who may not write. */
  pushRefusal: string;
  /** What a storage move may hold read-only (a push then refused with GitLab's read-only message). */
  container?: MovableContainer;
  /**
   * Called once the request is allowed: the repository, brought up to date. `pushing`: the caller
   * holds whatever keeps the owner's own writes away until `pushed` or `abandoned` is called.
   */
  open(pushing: boolean): Promise<{ shardPath: string; diskPath: string }>;
  /** The pre-receive hook's question: a refusal of these ref updates (message lines), or null. */
  checkPush(repoPath: string, quarantine: Quarantine, updates: readonly RefUpdate[]): Promise<string | null>;
  /** After a push that git finished (`succeeded`: it exited 0) by `userId`: the owner follows the repository. */
  pushed(userId: number, succeeded: boolean): Promise<void>;
}
