// One job on the shell executor, in GitLab Runner's order: a fresh build directory, the sources
// fetched with the job token at the job's commit, the caches restored, the dependencies' artifacts
// extracted, the `script` step (before_script + script), the `after_script` step whatever happened
// (its failure changes nothing), the caches saved and the artifacts uploaded when their `when` says
// so, and the end reported with `PUT /jobs/:id`. The job's timeout (`runner_info.timeout`) covers
// all of it; a cancel on the server (a 403 to the log or a keep-alive) kills the running step's
// process group and reports nothing more (nor saves a cache).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { KILN_VERSION } from '../platform/version.js';
import { JobGone, type JobPayload, type JobResult, type RunnerClient } from './protocol-client.js';
import { JobLog } from './job-log.js';
import { quoted, runStep, stepScript, type StepOutcome } from './shell.js';
import { extractZip, matchArtifacts, zipFiles } from './artifacts.js';
import { DEFAULT_CACHE_MAX_BYTES, restoreCaches, saveCaches, type CacheSettings } from './cache.js';

/** GitLab Runner gives `after_script` five minutes of its own. */
const AFTER_SCRIPT_TIMEOUT_MS = 5 * 60_000;

export interface RunJobOptions {
  buildsDir: string;
  /** Where the jobs' caches are kept (`--cache-dir`): a `cache` folder beside the builds dir unless told. */
  cacheDir?: string;
  /** A cache larger than this is neither saved nor extracted (DEFAULT_CACHE_MAX_BYTES unless told). */
  cacheMaxBytes?: number;
  /** Replaces the scheme, host and port of the job's repo_url (GitLab Runner's `clone_url`). */
  cloneUrl?: string;
  /**
   * How often the log is sent until the server names its interval (`X-GitLab-Trace-Update-Interval`),
   * and how long without output before a `PUT state=running` keep-alive.
   */
  traceIntervalMs: number;
  /**
   * The longest wait between sends the server's interval may set: GitLab Runner's 15 minutes unless
   * the runner needs its log sent sooner whoever watches (the tests that read a running job's log).
   */
  traceMaxIntervalMs?: number;
  keepAliveMs: number;
  /** The environment the job's shell starts from (the runner's own, minus what the job sets). */
  baseEnv: Record<string, string>;
  /**
   * Aborted when the runner itself must stop now (`kiln serve` stopping its built-in runner): the
   * running step's process group is killed and the job reported failed (`runner_system_failure`).
   */
  interrupt?: AbortSignal;
}

function repositoryUrl(job: JobPayload, cloneUrl: string | undefined): string {
  if (!cloneUrl) return job.git_info.repo_url;
  const original = new URL(job.git_info.repo_url);
  const target = new URL(cloneUrl);
  target.username = original.username;
  target.password = original.password;
  target.pathname = `${target.pathname.replace(/\/+$/, '')}/${job.job_info.project_full_path ?? original.pathname.replace(/^\/+/, '').replace(/\.git$/, '')}.git`;
  return target.toString();
}

/**
 * GIT_STRATEGY `none` (or `empty`) leaves the build directory without the repository, as GitLab Runner
 * does. `clone` and `fetch` (the project's `build_git_strategy`, sent as allow_git_fetch) both fetch
 * into the fresh directory every job starts in here, so both get the commit.
 */
function skipsGit(job: JobPayload): boolean {
  const strategy = job.variables.filter((variable) => variable.key === 'GIT_STRATEGY').pop()?.value;
  return strategy === 'none' || strategy === 'empty';
}

function fetchScript(job: JobPayload, url: string): string {
  const { sha, refspecs, depth, ref } = job.git_info;
  const fetch = `git fetch -q ${depth > 0 ? `--depth ${depth} ` : ''}origin ${refspecs.map(quoted).join(' ')}`;
  return [
    'set -eo pipefail',
    `echo ${quoted(`Fetching changes with git depth set to ${depth}...`)}`,
    'git init -q .',
    `git remote add origin ${quoted(url)}`,
    fetch,
    `echo ${quoted(`Checking out ${sha.slice(0, 8)} as detached HEAD (ref is ${ref})...`)}`,
    // A branch that moved on since the pipeline began may leave the commit below the fetched depth.
    `git -c advice.detachedHead=false checkout -q -f ${quoted(sha)} 2>/dev/null || { git fetch -q --unshallow origin ${refspecs.map(quoted).join(' ')} && git -c advice.detachedHead=false checkout -q -f ${quoted(sha)}; }`,
    '',
  ].join('\n');
}

async function jobEnvironment(job: JobPayload, base: Record<string, string>, buildDir: string, tmpDir: string): Promise<Record<string, string>> {
  const env: Record<string, string> = { ...base, CI_PROJECT_DIR: buildDir, CI_BUILDS_DIR: buildDir, GIT_TERMINAL_PROMPT: '0' };
  for (const variable of job.variables) {
    if (variable.file) {
      // A file variable is a path to a file holding the value, as GitLab Runner writes it.
      const path = join(tmpDir, variable.key);
      await writeFile(path, variable.value, { mode: 0o600 });
      env[variable.key] = path;
    } else env[variable.key] = variable.value;
  }
  return env;
}

export async function runJob(client: RunnerClient, job: JobPayload, options: RunJobOptions): Promise<JobResult | null> {
  const jobDir = join(options.buildsDir, String(job.id));
  const buildDir = join(jobDir, 'build');
  const tmpDir = join(jobDir, 'tmp');
  const cancel = new AbortController();
  let goneAs: string | null = null;
  const log = new JobLog(client, job, {
    intervalMs: options.traceIntervalMs,
    maxIntervalMs: options.traceMaxIntervalMs,
    keepAliveMs: options.keepAliveMs,
    onGone: (status) => {
      goneAs ??= status;
      cancel.abort();
    },
  });
  const onInterrupt = () => cancel.abort();
  if (options.interrupt?.aborted) cancel.abort();
  else options.interrupt?.addEventListener('abort', onInterrupt, { once: true });
  const deadline = Date.now() + job.runner_info.timeout * 1000;
  log.start();
  let result: JobResult;
  try {
    log.say(`Running with kiln-runner ${KILN_VERSION}`, 'green');
    log.say('Preparing the "shell" executor', 'green');
    await rm(jobDir, { recursive: true, force: true });
    await mkdir(buildDir, { recursive: true });
    await mkdir(tmpDir, { recursive: true });
    const env = await jobEnvironment(job, options.baseEnv, buildDir, tmpDir);
    const step = (script: string, name: string, timeoutMs: number) =>
      runStep({ script, cwd: buildDir, env, scriptPath: join(tmpDir, `${name}.sh`), timeoutMs, cancel: cancel.signal, onOutput: (text) => log.write(text) });

    log.sectionStart('get_sources', 'Getting source from Git repository');
    let fetched: StepOutcome = { exitCode: 0, stopped: null };
    if (skipsGit(job)) log.say('Skipping Git repository setup', 'green');
    else fetched = await step(fetchScript(job, repositoryUrl(job, options.cloneUrl)), 'get_sources', deadline - Date.now());
    log.sectionEnd('get_sources');
    if (fetched.stopped || fetched.exitCode !== 0) result = ended(log, fetched, job, 'runner_system_failure');
    else {
      const cache: CacheSettings = { cacheDir: options.cacheDir ?? join(dirname(options.buildsDir), 'cache'), maxBytes: options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES };
      result = await afterSources({ client, job, log, step, buildDir, cache }, deadline);
    }
  } catch (error) {
    if (error instanceof JobGone) goneAs ??= error.jobStatus;
    log.say(`ERROR: Job failed (system failure): ${error instanceof Error ? error.message : String(error)}`, 'red');
    result = { state: 'failed', failureReason: 'runner_system_failure' };
  }
  options.interrupt?.removeEventListener('abort', onInterrupt);
  if (options.interrupt?.aborted && goneAs === null) {
    log.say('ERROR: Job failed (system failure): the runner was stopped', 'red');
    result = { state: 'failed', failureReason: 'runner_system_failure' };
  }
  await log.close();
  await rm(jobDir, { recursive: true, force: true }).catch(() => undefined);
  if (goneAs !== null) return null;
  // A runner that is stopping now tries once: the server may be going down with it.
  await report(client, job, result, options.interrupt?.aborted ? 1 : 5);
  return result;
}

type Step = (script: string, name: string, timeoutMs: number) => Promise<StepOutcome>;

interface JobContext {
  client: RunnerClient;
  job: JobPayload;
  log: JobLog;
  step: Step;
  buildDir: string;
  cache: CacheSettings;
}

async function afterSources({ client, job, log, step, buildDir, cache }: JobContext, deadline: number): Promise<JobResult> {
  await restoreCaches(job, log, buildDir, cache);
  for (const dependency of job.dependencies) {
    if (!dependency.artifacts_file) continue;
    log.say(`Downloading artifacts for ${dependency.name} (${dependency.id})...`, 'green');
    const archive = await client.downloadArtifacts(dependency.id, dependency.token);
    await extractZip(buildDir, archive);
  }
  const [main, ...rest] = job.steps;
  let result: JobResult = { state: 'success' };
  if (main) {
    log.sectionStart(`step_${main.name}`, `Executing "step_${main.name}" stage of the job script`);
    const outcome = await step(stepScript(main.script), `step_${main.name}`, deadline - Date.now());
    log.sectionEnd(`step_${main.name}`);
    result = outcome.stopped === null && outcome.exitCode === 0 ? { state: 'success' } : ended(log, outcome, job, 'script_failure');
    if (outcome.stopped === 'canceled') return result;
  }
  for (const after of rest.filter((candidate) => candidate.name === 'after_script')) {
    log.sectionStart('after_script', 'Running after_script');
    const outcome = await step(stepScript(after.script), 'after_script', AFTER_SCRIPT_TIMEOUT_MS);
    log.sectionEnd('after_script');
    if (outcome.stopped !== 'canceled' && outcome.exitCode !== 0) log.say(`WARNING: after_script failed, but job will continue unaffected: exit code ${outcome.exitCode ?? 'none'}`, 'red');
  }
  await saveCaches(job, log, buildDir, cache, result.state === 'success');
  for (const artifact of job.artifacts ?? []) {
    const when = artifact.when ?? 'on_success';
    if (when !== 'always' && (when === 'on_success') !== (result.state === 'success')) continue;
    log.say('Uploading artifacts for ' + (result.state === 'success' ? 'successful' : 'failed') + ' job', 'green');
    const files = await matchArtifacts(buildDir, artifact.paths, artifact.exclude);
    if (files.length === 0) {
      log.say('WARNING: no files to upload', 'red');
      continue;
    }
    await client.uploadArtifacts(job, await zipFiles(buildDir, files), artifact);
    log.write(`${files.length} files uploaded as ${artifact.name ?? 'artifacts'}.zip\n`);
  }
  if (result.state === 'success') log.say('Job succeeded', 'green');
  return result;
}

/** The failed result of a step that did not exit 0, with GitLab Runner's last line. */
function ended(log: JobLog, outcome: StepOutcome, job: JobPayload, reason: 'script_failure' | 'runner_system_failure'): JobResult {
  if (outcome.stopped === 'timeout') {
    log.say(`ERROR: Job failed: execution took longer than ${job.runner_info.timeout} seconds`, 'red');
    return { state: 'failed', failureReason: 'job_execution_timeout' };
  }
  if (outcome.stopped === 'canceled') return { state: 'failed', failureReason: 'unknown_failure' };
  log.say(`ERROR: Job failed: exit code ${outcome.exitCode ?? 'none'}`, 'red');
  return { state: 'failed', failureReason: reason, ...(outcome.exitCode !== null ? { exitCode: outcome.exitCode } : {}) };
}

/** `PUT /jobs/:id` with the end, tried a few times: the server may be restarting. */
async function report(client: RunnerClient, job: JobPayload, result: JobResult, attempts: number): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      await client.updateJob(job, result);
      return;
    } catch (error) {
      if (error instanceof JobGone) return;
      await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** attempt));
    }
  }
}
