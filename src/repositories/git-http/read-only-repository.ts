// A repository that is no project's or group's, whose owner decides who reads it (a snippet's): what
// git over HTTP (serve-git.ts) and over SSH ask of it.
import type { AuthUser } from '../../platform/auth/principal.js';

export interface ReadOnlyGitRepository {
  readable(user: AuthUser | null): Promise<boolean>;
  /** Called once reading is allowed: the repository, brought up to date. */
  open(): Promise<{ shardPath: string; diskPath: string }>;
  /** What git prints to a push (none is taken). */
  pushRefusal: string;
}
