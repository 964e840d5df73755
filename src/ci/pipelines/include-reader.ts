// What `include:` reads (config/includes.ts), as the pipeline's user: files of the pipeline's
// project at its commit, and of other projects whose code that user may read (GitLab's
// download_code on the included project; a project the user cannot see is "not found"). An access
// token's bot reads other projects only while one of its tokens is usable (accounts/acts-in-name.ts).
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { actsInName, findProjectRow, toAuthUser, userCanOnProject } from '../../accounts/api.js';
import { findCommit, readableRepository } from '../../repositories/api.js';
import type { IncludeContext, IncludeProject, IncludeReader } from '../config/includes.js';
import { readYamlAt, treePaths } from './read-yaml.js';
import { RuleClauseError, type OtherProjectTree } from './rule-files.js';

/** A tree of more files than this is not searched for `local` wildcards (none match). */
const MAX_WILDCARD_TREE = 100_000;

export function includeReader(deps: Deps, userId: number | null): IncludeReader {
  const rows = new Map<number, ProjectRow>();
  const repository = async (project: IncludeProject) => {
    const row = rows.get(project.id) ?? (await findProjectRow(deps, project.id));
    return row ? readableRepository(deps, row) : null;
  };
  return {
    async read(project, sha, path) {
      const repoPath = await repository(project);
      return repoPath ? readYamlAt(repoPath, sha, path) : null;
    },
    async project(fullPath) {
      const row = await findProjectRow(deps, fullPath);
      if (!row) return null;
      const user = userId === null ? undefined : await deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
      if (!user || !(await actsInName(deps, user)) || !(await userCanOnProject(deps.reads, toAuthUser(user), row, 'download_code', deps.clock.now()))) return null;
      rows.set(Number(row.id), row);
      return { id: Number(row.id), fullPath: row.full_path };
    },
    async files(project, sha) {
      const repoPath = await repository(project);
      return (repoPath ? await treePaths(repoPath, sha, MAX_WILDCARD_TREE) : null) ?? [];
    },
    async commit(project, ref) {
      const repoPath = await repository(project);
      return repoPath ? ((await findCommit(repoPath, ref))?.id ?? null) : null;
    },
  };
}

/** `rules:exists:project`: another project's files at a ref, as the pipeline's user (GitLab's messages when it cannot). */
export function otherProjectTree(deps: Deps, userId: number | null): OtherProjectTree {
  const reader = includeReader(deps, userId);
  return async (projectPath, ref) => {
    const row = await findProjectRow(deps, projectPath);
    if (!row) throw new RuleClauseError(`rules:exists:project \`${projectPath}\` is not a valid project path`);
    const project = await reader.project(row.full_path);
    if (!project) throw new RuleClauseError(`rules:exists:project access denied to project \`${row.full_path}\``);
    const sha = await reader.commit(project, ref ?? 'HEAD');
    if (!sha) {
      if (ref === undefined) return [];
      throw new RuleClauseError(`rules:exists:ref \`${ref}\` is not a valid ref in project \`${row.full_path}\``);
    }
    return reader.files(project, sha);
  };
}

/** The include context of a project's commit, read as this user. */
export function includeContext(deps: Deps, project: ProjectRow | null, sha: string | null, userId: number | null, variables: Record<string, string> = {}): IncludeContext {
  return { reader: includeReader(deps, userId), project: project ? { id: Number(project.id), fullPath: project.full_path } : null, sha, variables };
}
