// Where a project's pipeline configuration comes from (its `ci_config_path`, GitLab's "CI/CD
// configuration file" setting): unset, the commit's `.gitlab-ci.yml`; a path, that file of the
// commit; `file@group/project` or `file@group/project:ref`, a file of another project; a URL, a
// remote file. As GitLab does, the last two become an `include:` of that file, so they are read with
// the pipeline user's access (and a remote one is refused, as every `include: remote` is in Kiln).
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { parseStored } from '../../platform/db/stored-json.js';
import { readYamlAt } from './read-yaml.js';

export const DEFAULT_CI_CONFIG_PATH = '.gitlab-ci.yml';

/** The project's `ci_config_path`, `.gitlab-ci.yml` when unset or blank (the CI_CONFIG_PATH variable). */
export function ciConfigPath(project: Pick<ProjectRow, 'settings'>): string {
  const stored = parseStored(project.settings).ci_config_path;
  return typeof stored === 'string' && stored.trim() !== '' ? stored.trim() : DEFAULT_CI_CONFIG_PATH;
}

const OTHER_PROJECT = /^([^@]+)@([^@:]+)(?::(.+))?$/;
const URL_PATH = /^https?:\/\//i;

/** The configuration's text for a commit: the file's, or an `include:` of the file elsewhere; null when there is no file. */
export function readCiConfigAt(repoPath: string, sha: string, path: string): Promise<string | null | { tooBig: true }> {
  // JSON strings are YAML double-quoted scalars: any path or ref is written as it is.
  if (URL_PATH.test(path)) return Promise.resolve(`include:\n  - remote: ${JSON.stringify(path)}\n`);
  const other = OTHER_PROJECT.exec(path);
  if (other) {
    const [, file, project, ref] = other;
    return Promise.resolve(`include:\n  - project: ${JSON.stringify(project)}\n    file: ${JSON.stringify(file)}\n${ref ? `    ref: ${JSON.stringify(ref)}\n` : ''}`);
  }
  return readYamlAt(repoPath, sha, path);
}
