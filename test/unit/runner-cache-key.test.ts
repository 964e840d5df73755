// The runner's cache keys are path segments under the project's cache folder (src/runner/cache-key.ts):
// encoded slashes and dots, backslashes and `..` are read as GitLab Runner reads them and can never
// climb out of the folder; a trailing empty or space-ending part is dropped; variables expand.
import { describe, expect, it } from 'vitest';
import { cacheArchivePath, expandVariables, projectCacheDir, sanitizeCacheKey } from '../../src/runner/cache-key.js';
import type { JobPayload } from '../../src/runner/protocol-client.js';

describe('sanitizeCacheKey', () => {
  it('keeps a plain key, and a key with folders', () => {
    expect(sanitizeCacheKey('deps-protected')).toEqual({ key: 'deps-protected' });
    expect(sanitizeCacheKey('build/main')).toEqual({ key: 'build/main' });
  });

  it('resolves .. (also encoded, also with backslashes) against the cache root, with a warning', () => {
    expect(sanitizeCacheKey('../../etc/passwd')).toEqual({ key: 'etc/passwd', warning: 'cache key "../../etc/passwd" sanitized to "etc/passwd"' });
    expect(sanitizeCacheKey('%2E%2E%2fother-project%2Fkey').key).toBe('other-project/key');
    expect(sanitizeCacheKey('..\\..\\x').key).toBe('x');
    expect(sanitizeCacheKey('a/../../b').key).toBe('b');
  });

  it('drops a trailing empty or space-ending part, and refuses a key with nothing left', () => {
    expect(sanitizeCacheKey('key/ ').key).toBe('key');
    expect(sanitizeCacheKey('key  ').key).toBe('key');
    expect(sanitizeCacheKey('..')).toEqual({ key: null, warning: 'cache key ".." could not be sanitized' });
    expect(sanitizeCacheKey('')).toEqual({ key: null });
  });
});

describe('where a cache lives', () => {
  const job = { job_info: { project_id: 4, project_full_path: 'group/app' }, git_info: { repo_url: 'http://x/group/app.git' } } as unknown as JobPayload;

  it('is <cache dir>/<project path>/<key>/cache.zip, never outside the project folder', () => {
    const project = projectCacheDir('/var/cache/kiln', job);
    expect(project).toBe('/var/cache/kiln/group/app');
    expect(cacheArchivePath(project, 'deps-protected')).toBe('/var/cache/kiln/group/app/deps-protected/cache.zip');
    expect(cacheArchivePath(project, '../other/deps')).toBeNull();
    const climbing = { ...job, job_info: { project_id: 4, project_full_path: '../../../tmp' } } as unknown as JobPayload;
    expect(projectCacheDir('/var/cache/kiln', climbing)).toBe('/var/cache/kiln/tmp');
  });

  it('expands $NAME and ${NAME} from the job\'s variables, unknown names to nothing', () => {
    const variables = new Map([['CI_COMMIT_REF_SLUG', 'main'], ['JOB', 'build']]);
    expect(expandVariables('$CI_COMMIT_REF_SLUG-${JOB}-$MISSING-protected', variables)).toBe('main-build--protected');
  });
});
