// What Markdown asks of other features, registered in their setup. Repositories render Markdown
// (READMEs, tags, commit comments), so Markdown must not import repositories (docs/architecture.md,
// "Boundaries"): it asks this hook for the commits a text names. Held per app instance (per Deps).
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';

/** A commit a reference names, as its link shows it. */
export interface ReferencedCommit {
  /** The full object id. */
  id: string;
  /** The first line of its message, GitLab's commit title (shortened as GitLab shortens it). */
  title: string;
}

export interface MarkdownHooks {
  /**
   * The commits of `project`'s repository that `revisions` (`<sha>^{commit}`) name, in no particular
   * order; none when the project has no readable repository (repositories registers it).
   */
  readCommits?: (project: ProjectRow, revisions: string[]) => Promise<ReferencedCommit[]>;
}

const hooks = new WeakMap<Deps, MarkdownHooks>();

export function markdownHooks(deps: Deps): MarkdownHooks {
  let registered = hooks.get(deps);
  if (!registered) hooks.set(deps, (registered = {}));
  return registered;
}
