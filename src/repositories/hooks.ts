// What other features plug into a push, registered in their setup. They use repositories (through
// api.ts), so repositories must not import them (docs/architecture.md, "Boundaries"): it asks these
// hooks instead. Held per app instance, keyed by its event bus (as merge-requests/hooks.ts).
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { RefUpdate } from './protected-branches/branch-check.js';
import type { Quarantine } from './protected-branches/check-push.js';
import type { WikiOwner } from './wiki-repository.js';
import type { OwnedGitRepository } from './git-http/owned-repository.js';

/** A commit's latest pipeline, as the commit list and the commit page show it. */
export interface CommitStatusBadge {
  pipelineId: number;
  /** GitLab's status (`success`, `failed`, `running`…). */
  status: string;
  /** Where the newest of its statuses points (an http or https URL), if any does. */
  targetUrl: string | null;
}

export interface RepositoryHooks {
  /**
   * The lines `git push` prints as `remote: …` once the refs moved (GitLab's post-receive output):
   * merge requests register the "To create a merge request for …" links. `updates`: the refs that moved.
   */
  pushMessages?: (project: ProjectRow, updates: RefUpdate[]) => Promise<string[]>;
  /**
   * A refusal of the pushed objects, asked after the protected refs accepted the push: the LFS
   * pointers' objects (lfs/push-check.ts, registered in index.ts so that git-http need not import lfs).
   */
  checkPushedObjects?: (project: ProjectRow, repoPath: string, quarantine: Quarantine, updates: readonly RefUpdate[]) => Promise<string | null>;
  /** The latest pipeline of each of `shas` that has one, by sha: commit statuses register it. */
  commitStatuses?: (projectId: number, shas: string[]) => Promise<Map<string, CommitStatusBadge>>;
  /**
   * `gitlab-ci-token` with a CI job token as the password (GitLab's CI_JOB_TOKEN for git): CI
   * registers who the running job acts as (its user's id), null when the token is no running job's.
   */
  jobTokenUser?: (token: string) => Promise<number | null>;
  /** The project of the running job a CI job token belongs to (null: none), for the job token scope. */
  jobTokenProject?: (token: string) => Promise<number | null>;
  /** Whether a job of `jobProjectId` may reach `targetProjectId` with its token (the target's job token scope). */
  jobTokenReaches?: (jobProjectId: number, targetProjectId: number) => Promise<boolean>;
  /**
   * The branches of a fork that a user who may not push to it may push to all the same: merge
   * requests register the source branches of open merge requests with `allow_collaboration` into
   * targets the user may merge into (GitLab's Project#branch_allows_collaboration?).
   */
  collaborationBranches?: (fork: ProjectRow, user: AuthUser) => Promise<string[]>;
  /**
   * A push moved a wiki's HEAD branch from `before` to `after` (null: it had no commit): wikis
   * register what a page changed by a push means (its Wiki Page Hook).
   */
  wikiPushed?: (owner: WikiOwner, actorId: number, before: string | null, after: string) => Promise<void>;
  /**
   * A repository at `path` (as git over SSH names it, without `.git`) that is no project's or group's
   * and whose owner decides who reads and pushes to it, or null: snippets register theirs (`snippets/<id>`,
   * `<project>/snippets/<id>`).
   */
  ownedRepository?: (path: string) => OwnedGitRepository | null;
}

const hooks = new WeakMap<object, RepositoryHooks>();

export function repositoryHooks(deps: Deps): RepositoryHooks {
  let registered = hooks.get(deps.domainEvents);
  if (!registered) {
    registered = {};
    hooks.set(deps.domainEvents, registered);
  }
  return registered;
}
