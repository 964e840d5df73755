// What other features plug into accounts' actions, registered in their setup. They use accounts
// (through api.ts), so accounts must not import them (docs/architecture.md, "Boundaries"): it asks
// these hooks instead. Held per app instance (per Deps), never per module.
import type { Deps } from '../platform/deps.js';
import type { UserRow } from './lookup.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { Executor } from '../platform/db/database.js';

export interface InitialFiles {
  readme: boolean;
  files: { path: string; content: string }[];
}

export interface NewProjectTemplates {
  licenses(): { key: string; name: string }[];
  gitignores(): Promise<{ key: string; name: string }[]>;
  /** The license's text with the year, `fullname` and the project's name filled in; undefined if unknown. */
  license(key: string, values: { fullname: string; project: string }): string | undefined;
  gitignore(key: string): Promise<string | undefined>;
}

export type ChangeDefaultBranchResult = 'changed' | 'empty' | 'missing_branch' | 'invalid_name';

export interface AccountHooks {
  /** Points the project's repository HEAD at `branch` (the repositories feature registers it). */
  changeDefaultBranch?: (projectId: number, branch: string) => Promise<ChangeDefaultBranchResult>;
  /**
   * The first commit of a new project: README.md (`initialize_with_readme`) and the files chosen on the
   * new-project form (LICENSE, .gitignore); repositories registers it.
   */
  initializeRepository?: (access: ProjectAccess, initial: InitialFiles) => Promise<void>;
  /** The license and .gitignore templates the new-project form offers (the templates feature registers it). */
  fileTemplates?: NewProjectTemplates;
  /** Whether git takes `name` for a branch (a new project's `default_branch`; repositories registers it). */
  isValidBranchName?: (name: string) => boolean;
  /** GitLab's ProjectStatistics of a project (`statistics=true`; repositories registers it). */
  projectStatistics?: (project: ProjectAccess['project']) => Promise<Record<string, number>>;
  /**
   * Links a project to the topics it lists (in the writing transaction), making those that do not
   * exist; answers the names as the topics spell them (the topics feature registers it).
   */
  linkTopics?: (executor: Executor, projectId: number, names: string[]) => Promise<string[]>;
  /** Keeps the user's notification e-mail (the notifications feature registers it). */
  setNotificationEmail?: (user: UserRow, email: string) => Promise<void>;
}

const hooks = new WeakMap<Deps, AccountHooks>();

export function accountHooks(deps: Deps): AccountHooks {
  let registered = hooks.get(deps);
  if (!registered) hooks.set(deps, (registered = {}));
  return registered;
}
