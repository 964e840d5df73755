// The job's `cache:` on the runner's disk, as GitLab Runner's local cache (no shared cache server):
// before the script, each cache whose policy pulls is extracted into the build directory from
// `<cache dir>/<project path>/<key>/cache.zip`, or from the first of its fallback keys (then
// CACHE_FALLBACK_KEY) that has an archive; after the script and after_script, each cache whose
// policy pushes and whose `when` matches the job's outcome is zipped from its `paths` (and the
// untracked files with `untracked: true`) and written in place whole: a temporary file renamed
// over the old archive, so a job running beside it (`--concurrent`) reads the old archive or the
// new one, never half of one. A cache is bounded: one larger than the runner's limit is neither
// saved nor extracted. Failures are warnings, as GitLab Runner's: the job goes on without its cache.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { JobLog } from './job-log.js';
import type { JobCache, JobPayload } from './protocol-client.js';
import { extractZip, matchEachPath, zipFiles } from './artifacts.js';
import { cacheArchivePath, expandVariables, jobVariables, projectCacheDir, sanitizeCacheKey } from './cache-key.js';

const run = promisify(execFile);

/** The default bound on a cache: its files' total size when saved, its archive's when extracted. */
export const DEFAULT_CACHE_MAX_BYTES = 256 * 1024 * 1024;

export interface CacheSettings {
  /** The runner's cache folder (`--cache-dir`). */
  cacheDir: string;
  maxBytes: number;
}

interface CacheContext {
  job: JobPayload;
  log: JobLog;
  buildDir: string;
  settings: CacheSettings;
  variables: Map<string, string>;
  projectDir: string;
}

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function context(job: JobPayload, log: JobLog, buildDir: string, settings: CacheSettings): CacheContext {
  return { job, log, buildDir, settings, variables: jobVariables(job, buildDir), projectDir: projectCacheDir(settings.cacheDir, job) };
}

/** The caches that name something to keep (GitLab Runner skips the others, and the whole stage without any). */
const usable = (job: JobPayload) => (job.cache ?? []).map((cache) => ({ ...cache, paths: cache.paths ?? [] })).filter((cache) => cache.paths.length > 0 || cache.untracked);

/** The cache's key expanded and sanitized, its warning logged; null (logged) when nothing is left. */
function keyOf(ctx: CacheContext, raw: string, action: 'extraction' | 'archiving'): string | null {
  const { key, warning } = sanitizeCacheKey(expandVariables(raw, ctx.variables));
  if (warning) ctx.log.say(`WARNING: ${warning}`, 'yellow');
  if (key === null) ctx.log.say(`Skipping cache ${action} due to empty cache key`, 'green');
  return key;
}

/** Whether the cache's policy (a variable may name it) allows `direction`; an unknown one fails the job, as in GitLab Runner. */
function allows(ctx: CacheContext, cache: JobCache, key: string, direction: 'pull' | 'push'): boolean {
  const policy = expandVariables(cache.policy ?? 'pull-push', ctx.variables) || 'pull-push';
  if (!['pull', 'push', 'pull-push'].includes(policy)) throw new Error(`unknown cache policy ${policy} for ${key}`);
  return policy === 'pull-push' || policy === direction;
}

/**
 * Runs `each` in a log section for every cache whose key survives sanitizing and whose policy allows
 * `direction` (GitLab Runner's "due to policy" line for the others); nothing, not even the section,
 * without caches.
 */
async function forEachCache(ctx: CacheContext, caches: JobCache[], direction: 'pull' | 'push', section: [string, string], each: (cache: JobCache, key: string) => Promise<void>): Promise<void> {
  if (caches.length === 0) return;
  ctx.log.sectionStart(...section);
  try {
    for (const cache of caches) {
      const key = keyOf(ctx, cache.key, direction === 'pull' ? 'extraction' : 'archiving');
      if (key === null) continue;
      if (allows(ctx, cache, key, direction)) await each(cache, key);
      else ctx.log.say(`Not ${direction === 'pull' ? 'downloading' : 'uploading'} cache ${key} due to policy`, 'green');
    }
  } finally {
    ctx.log.sectionEnd(section[0]);
  }
}

export async function restoreCaches(job: JobPayload, log: JobLog, buildDir: string, settings: CacheSettings): Promise<void> {
  const ctx = context(job, log, buildDir, settings);
  await forEachCache(ctx, usable(job), 'pull', ['restore_cache', 'Restoring cache'], async (cache, key) => {
    const candidates = [key];
    for (const fallback of cache.fallback_keys ?? []) {
      const fallbackKey = fallback === '' ? null : keyOf(ctx, fallback, 'extraction');
      if (fallbackKey !== null) candidates.push(fallbackKey);
    }
    const global = ctx.variables.get('CACHE_FALLBACK_KEY') ?? '';
    // A protected ref's caches end in `-protected`: the project-wide fallback may not name one.
    if (global.endsWith('-protected')) log.say(`WARNING: CACHE_FALLBACK_KEY ${JSON.stringify(global)} not allowed to end in "-protected"`, 'yellow');
    else if (global !== '') {
      const globalKey = keyOf(ctx, global, 'extraction');
      if (globalKey !== null) candidates.push(globalKey);
    }
    for (const candidate of candidates) {
      if (await extractOne(ctx, candidate)) break;
    }
  });
}

/** Extracts the archive of `key` into the build directory; false (logged) when it is missing, too large or broken. */
async function extractOne(ctx: CacheContext, key: string): Promise<boolean> {
  const { log } = ctx;
  log.say(`Checking cache for ${key}...`, 'green');
  log.write('No URL provided, cache will not be downloaded from shared cache server. Instead a local version of cache will be extracted.\n');
  const file = cacheArchivePath(ctx.projectDir, key);
  try {
    const size = file === null ? null : (await stat(file).catch(() => null))?.size ?? null;
    if (file === null || size === null) log.say('WARNING: Cache file does not exist', 'yellow');
    else if (size > ctx.settings.maxBytes) log.say(`WARNING: Cache file is ${mebibytes(size)}, over the runner's limit of ${mebibytes(ctx.settings.maxBytes)}: not extracted`, 'yellow');
    else {
      await extractZip(ctx.buildDir, new Uint8Array(await readFile(file)));
      log.say('Successfully extracted cache', 'green');
      return true;
    }
  } catch (error) {
    log.say(`WARNING: ${error instanceof Error ? error.message : String(error)}`, 'yellow');
  }
  log.say('Failed to extract cache', 'yellow');
  return false;
}

export async function saveCaches(job: JobPayload, log: JobLog, buildDir: string, settings: CacheSettings, succeeded: boolean): Promise<void> {
  const caches = usable(job).filter((cache) => {
    const when = cache.when ?? 'on_success';
    return when === 'always' || (when === 'on_success') === succeeded;
  });
  const ctx = context(job, log, buildDir, settings);
  const section: [string, string] = succeeded ? ['archive_cache', 'Saving cache for successful job'] : ['archive_cache_on_failure', 'Saving cache for failed job'];
  await forEachCache(ctx, caches, 'push', section, async (cache, key) => {
    log.say(`Creating cache ${key}...`, 'green');
    try {
      if (await archiveOne(ctx, cache, key)) {
        log.write('No URL provided, cache will not be uploaded to shared cache server. Cache will be stored only locally.\n');
        log.say('Created cache', 'green');
        return;
      }
    } catch (error) {
      log.say(`WARNING: ${error instanceof Error ? error.message : String(error)}`, 'yellow');
    }
    log.say('Failed to create cache', 'yellow');
  });
}

/** The files a cache keeps, each path's count logged (GitLab Runner's lines), plus the untracked ones. */
async function cachedFiles(ctx: CacheContext, cache: JobCache): Promise<string[]> {
  const files = new Set<string>();
  for (const [path, found] of await matchEachPath(ctx.buildDir, cache.paths)) {
    if (found.length === 0) ctx.log.say(`WARNING: ${path}: no matching files. Ensure that the artifact path is relative to the working directory`, 'yellow');
    else ctx.log.write(`${path}: found ${found.length} matching files\n`);
    for (const file of found) files.add(file);
  }
  if (cache.untracked) {
    const { stdout } = await run('git', ['ls-files', '--others', '-z'], { cwd: ctx.buildDir, maxBuffer: 64 * 1024 * 1024 });
    const untracked = stdout.split('\0').filter((file) => file !== '' && !file.startsWith('.git/'));
    ctx.log.write(`untracked: found ${untracked.length} files\n`);
    for (const file of untracked) files.add(file);
  }
  return [...files].sort();
}

/** Zips the cache's files into its archive, replacing the old one whole; false (logged) when over the limit. */
async function archiveOne(ctx: CacheContext, cache: JobCache, key: string): Promise<boolean> {
  const file = cacheArchivePath(ctx.projectDir, key);
  if (file === null) throw new Error(`cache key ${JSON.stringify(key)} points outside the cache directory`);
  const files = await cachedFiles(ctx, cache);
  let total = 0;
  for (const name of files) {
    total += (await stat(join(ctx.buildDir, name))).size;
    if (total > ctx.settings.maxBytes) {
      ctx.log.say(`WARNING: Cache ${key} is over the runner's limit of ${mebibytes(ctx.settings.maxBytes)}: not saved`, 'yellow');
      return false;
    }
  }
  const archive = await zipFiles(ctx.buildDir, files);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, archive, { mode: 0o600 });
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
  return true;
}
