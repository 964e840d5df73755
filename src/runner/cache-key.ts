// Where a job's cache lives on the runner, as GitLab Runner's local cache keeps it:
// `<cache dir>/<project path>/<key>/cache.zip`. The key comes from the job's `.gitlab-ci.yml` with
// its variables expanded here (`key: $CI_COMMIT_REF_SLUG`), so it is the job's to choose: like
// GitLab Runner, the runner reads `%2F`/`%2E` as `/`/`.` and `\` as `/`, resolves `..` against the
// cache's own root (a key never leaves the project's folder), drops a trailing empty or
// space-ending part, and says so in the log when the key changed.
import { resolve, sep } from 'node:path';
import type { JobPayload } from './protocol-client.js';

export interface SanitizedKey {
  /** The key to use, null when nothing is left of it. */
  key: string | null;
  /** GitLab Runner's warning when the key was changed or refused. */
  warning?: string;
}

export function sanitizeCacheKey(raw: string): SanitizedKey {
  if (raw === '') return { key: null };
  const text = raw.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/\\/g, '/');
  const parts: string[] = [];
  for (const part of text.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  // The last part may not be empty or end in whitespace (a folder name some systems refuse).
  while (parts.length > 0) {
    const last = parts[parts.length - 1].trimEnd();
    if (last !== '' && last !== '.' && last !== '..') {
      parts[parts.length - 1] = last;
      break;
    }
    parts.pop();
  }
  const key = parts.join('/');
  if (key === '') return { key: null, warning: `cache key ${JSON.stringify(raw)} could not be sanitized` };
  return key === raw ? { key } : { key, warning: `cache key ${JSON.stringify(raw)} sanitized to ${JSON.stringify(key)}` };
}

/** `$NAME` and `${NAME}` replaced by the job's variables (unknown names by nothing), as GitLab Runner expands keys and policies. */
export function expandVariables(text: string, variables: Map<string, string>): string {
  return text.replace(/\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g, (_, braced: string | undefined, bare: string | undefined) => variables.get(braced ?? bare ?? '') ?? '');
}

/** The job's variables by name (later ones win, as in the job's environment), with the runner's own CI_PROJECT_DIR. */
export function jobVariables(job: JobPayload, buildDir: string): Map<string, string> {
  const variables = new Map(job.variables.map((variable) => [variable.key, variable.value]));
  variables.set('CI_PROJECT_DIR', buildDir);
  variables.set('CI_BUILDS_DIR', buildDir);
  return variables;
}

/** `<cache dir>/<project path>`: the project's own folder, named as GitLab Runner names it, never outside the cache dir. */
export function projectCacheDir(cacheDir: string, job: JobPayload): string {
  const fromUrl = () => {
    try {
      return decodeURIComponent(new URL(job.git_info.repo_url).pathname).replace(/\.git$/, '');
    } catch {
      return '';
    }
  };
  const path = sanitizeCacheKey(job.job_info.project_full_path ?? fromUrl()).key ?? `project-${job.job_info.project_id}`;
  return resolve(cacheDir, path);
}

/** The archive of `key` in the project's folder; null if it would land outside it (never, after sanitizing). */
export function cacheArchivePath(projectDir: string, key: string): string | null {
  const file = resolve(projectDir, key, 'cache.zip');
  return file.startsWith(projectDir + sep) ? file : null;
}
