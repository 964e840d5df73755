// The subjects that abilities are asked on, as the route kit hands them to handlers. The accounts
// feature registers how they are found (AuthRegistry.subjects); the policies decide what is allowed.
import type { Selectable } from 'kysely';
import type { NamespacesTable, ProjectsTable } from '../db/tables/accounts.js';
import type { AuthUser, Principal } from './principal.js';
import type { GroupAbility, InstanceAbility, ProjectAbility } from './policies/abilities.js';
import type { PolicySubject } from './policies/policy.js';

export type ProjectRow = Selectable<ProjectsTable>;
export type NamespaceRow = Selectable<NamespacesTable>;

export interface ProjectAccess extends PolicySubject {
  project: ProjectRow;
  /** The namespace (user or group) the project lives in. */
  namespace: NamespaceRow;
}

export interface GroupAccess extends PolicySubject {
  group: NamespaceRow;
}

/**
 * What a route or page may do, declared with it: an ability on the project or group named by a path
 * parameter (`id` unless `param` says otherwise), or on the instance. Every route declares one; a
 * test walks them all.
 */
export type RouteAbility =
  | { instance: InstanceAbility }
  | { project: ProjectAbility; param?: string }
  | { group: GroupAbility; param?: string }
  /**
   * Decided by something other than a user's ability: an alert integration's key, an OAuth client or
   * token of its own protocol, the monitoring allow-list; `none` for probes open to all, `dispatch`
   * for the router that hands namespaced paths to routes that declare their own, `signed_link` for a
   * link whose own signature names what it may do (the unsubscribe link of notification e-mail),
   * `git_http` for git's smart HTTP (HTTP Basic, then download_code or push_code by the service),
   * `ci_runner` for the runner protocol (a runner's or registration token in the body or `RUNNER-TOKEN`),
   * `ci_job` for a running job's calls (its job token in the body, `JOB-TOKEN` or `job_token`).
   *
   * A project or group ability is checked by the route kit before the handler (route-subject.ts);
   * a route registered any other way may not declare one.
   */
  | { credential: 'integration_key' | 'oauth' | 'monitoring_allowlist' | 'none' | 'dispatch' | 'signed_link' | 'git_http' | 'ci_runner' | 'ci_job' };

/**
 * The project a route names, read in the same statement as the caller's token (AuthRegistry
 * `personalAccessTokenWithProject`): the row, its namespace and the token user's membership level.
 */
export interface PrefetchedProject {
  project: ProjectRow;
  namespace: NamespaceRow;
  memberLevel: number;
}

/** How subjects are found: registered by the accounts feature at setup. */
export interface SubjectFinders {
  /**
   * A project the user can read and holds `ability` on: 404 when unreadable, 403 without the ability.
   * `prefetched`, read with the principal's own token, saves reading it again.
   */
  project(principal: Principal | null, idOrPath: string | number, ability: ProjectAbility, prefetched?: PrefetchedProject): Promise<ProjectAccess>;
  group(principal: Principal | null, idOrPath: string | number, ability: GroupAbility): Promise<GroupAccess>;
}

export type { AuthUser };
