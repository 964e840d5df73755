// The caches a runner is handed (GitLab's Seed::Build::Cache and Ci::Build#cache): a `key:files`
// key is the SHA-1 of the last commits that changed those files (`default` when none did), after
// its `prefix`. With the project's `ci_separated_caches` (GitLab's "use separate caches for
// protected branches", on by default) every key (and fallback key) ends in `-protected` or
// `-non_protected` after the job's ref, so a job of an unprotected branch never reads or writes a
// protected ref's cache; `unprotect: true` makes a protected ref's job use the `-non_protected` one.
// With the setting off, the keys are as written and every branch shares them.
import { createHash } from 'node:crypto';
import type { CiCache } from '../config/cache.js';
import type { ResolvedCache } from '../config/parse-config.js';
import { gitCall } from '../../repositories/api.js';

async function lastCommitOf(repoPath: string, sha: string, path: string): Promise<string | null> {
  const outcome = await gitCall(repoPath, ['log', '-1', '--format=%H', sha, '--', path.replace(/^\/+/, '')]);
  const id = outcome.code === 0 ? outcome.stdout.toString().trim() : '';
  return /^[0-9a-f]{40,64}$/.test(id) ? id : null;
}

/** `protectedRef`: the job's ref is protected; `separated`: the project's `ci_separated_caches`. */
export async function resolveCaches(repoPath: string, sha: string, caches: CiCache[] | null, protectedRef: boolean, separated: boolean): Promise<ResolvedCache[]> {
  const suffix = (key: string, cache: CiCache) => (separated ? `${key}-${protectedRef && !cache.unprotect ? 'protected' : 'non_protected'}` : key);
  const resolved: ResolvedCache[] = [];
  for (const cache of caches ?? []) {
    let key: string;
    if (typeof cache.key === 'string') key = cache.key;
    else {
      const ids = [...new Set((await Promise.all(cache.key.files.map((path) => lastCommitOf(repoPath, sha, path)))).filter((id): id is string => id !== null))].sort();
      const digest = ids.length ? createHash('sha1').update(ids.join('-')).digest('hex') : 'default';
      key = [cache.key.prefix, digest].filter((part) => part).join('-');
    }
    resolved.push({
      key: suffix(key, cache), untracked: cache.untracked, paths: cache.paths, policy: cache.policy, when: cache.when,
      fallback_keys: cache.fallbackKeys.map((fallback) => suffix(fallback, cache)),
    });
  }
  return resolved;
}
