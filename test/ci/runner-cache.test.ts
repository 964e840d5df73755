// `kiln runner` restores and saves `cache:` (issue 39) against a real Kiln on loopback, with git and
// the shell executor: a job's `vendor/` is there for a later job with the same key; `policy: pull`
// restores without saving; `when: on_failure` saves only for a failed job; `fallback_keys` restore
// when the key has nothing; a `key:files` key changes with its file and only then; a key that
// climbs out with `..` stays in the project's folder; a cache over the runner's limit is not saved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { closePipelineProject, finishedPipeline as finishedPipelineOf, jobTrace, pipelineProject, pushFiles, runnerEnv, type PipelineProject } from '../helpers/pipeline-runs.js';
import { runnerCommand, startRunner, type RunningRunner } from '../../src/runner/index.js';

let setup: PipelineProject;
let cacheDir: string;
let runner: RunningRunner;

/** Counts its runs in a cache whose key is made from lock.txt's last commit. */
const FILES_KEY_JOB = `files-key:
  stage: one
  script:
    - mkdir -p counted
    - echo run >> counted/runs
    - echo "runs=$(wc -l < counted/runs)"
  cache:
    key: { files: [lock.txt] }
    paths: [counted/]
`;

const CONFIG = `
stages: [one, two, three]
install:
  stage: one
  script:
    - mkdir -p vendor
    - echo "from install" > vendor/x
  cache:
    key: deps
    paths: [vendor/]
big:
  stage: one
  script:
    - mkdir -p huge
    - head -c 100000 /dev/urandom > huge/blob
  cache: { key: big, paths: [huge/] }
sneaky:
  stage: one
  variables:
    CLIMB: ../../../escape
  script:
    - mkdir -p kept && echo sneaky > kept/file
  cache: { key: $CLIMB, paths: [kept/] }
${FILES_KEY_JOB}reader:
  stage: two
  script:
    - cat vendor/x
    - echo "reader wrote this" > vendor/y
  cache:
    key: deps
    paths: [vendor/]
    policy: pull
failing:
  stage: two
  allow_failure: true
  script:
    - mkdir -p out
    - echo "failed run" > out/f
    - exit 1
  cache:
    - key: failures
      paths: [out/]
      when: on_failure
    - key: successes
      paths: [out/]
fallback:
  stage: three
  script:
    - cat vendor/x
  cache:
    key: nothing-here
    paths: [vendor/]
    fallback_keys: [deps]
    policy: pull
`;

const FILES_KEY_ONLY = FILES_KEY_JOB.replace('  stage: one\n', '');

const pushCommit = (message: string, files: Record<string, string>) => pushFiles(setup, message, files);
const finishedPipeline = (sha: string) => finishedPipelineOf(setup, sha);
const trace = (jobId: number) => jobTrace(setup, jobId);
// eslint-disable-next-line no-control-regex
const plain = (log: string) => log.replace(/\u001b\[[0-9;]*m/g, '');
const projectCache = () => join(cacheDir, 'maintainer', 'app');
/** The entries of a cache's archive, null when there is none. */
const archived = (key: string) => {
  const file = join(projectCache(), key, 'cache.zip');
  return existsSync(file) ? Object.keys(unzipSync(new Uint8Array(readFileSync(file)))).sort() : null;
};

beforeAll(async () => {
  setup = await pipelineProject('kiln-runner-cache-');
  cacheDir = join(setup.work, 'cache');
  runner = await startRunner({
    url: setup.base, token: setup.runner.token, cloneUrl: setup.base, concurrent: 2, buildsDir: join(setup.work, 'builds'), cacheDir, cacheMaxBytes: 64 * 1024,
    baseEnv: runnerEnv(setup), traceIntervalMs: 200,
  });
}, 60_000);

afterAll(() => closePipelineProject(setup, runner));

describe('kiln runner restores and saves the cache', () => {
  let jobs: Record<string, any>;
  let suffix: string;
  let firstFilesKey: string;

  it('runs a pipeline whose jobs use caches', async () => {
    const sha = await pushCommit('ci', { '.gitlab-ci.yml': CONFIG, 'lock.txt': 'v1\n', 'README.md': 'one\n' });
    const result = await finishedPipeline(sha);
    jobs = result.jobs;
    expect(Object.fromEntries(Object.entries(jobs).map(([name, job]) => [name, job.status]))).toEqual({
      install: 'success', big: 'success', sneaky: 'success', 'files-key': 'success', reader: 'success', failing: 'failed', fallback: 'success',
    });
    // The server's keys end in -protected or -non_protected after the ref (main may be protected).
    suffix = /Creating cache deps-(protected|non_protected)\.\.\./.exec(plain(await trace(jobs.install.id)))?.[1] ?? 'none';
    expect(['protected', 'non_protected']).toContain(suffix);
  }, 180_000);

  it('a job saves its paths under its key, and a later job with the key finds them', async () => {
    const install = plain(await trace(jobs.install.id));
    expect(install).toContain('Restoring cache');
    expect(install).toContain(`Checking cache for deps-${suffix}...`);
    expect(install).toContain('WARNING: Cache file does not exist');
    expect(install).toContain('Failed to extract cache');
    expect(install).toContain('Saving cache for successful job');
    expect(install).toContain('vendor/: found 1 matching files');
    expect(install).toContain('Created cache');
    const reader = plain(await trace(jobs.reader.id));
    expect(reader).toContain(`Checking cache for deps-${suffix}...`);
    expect(reader).toContain('Successfully extracted cache');
    expect(reader).toContain('from install');
  });

  it('policy pull restores but does not save', async () => {
    expect(plain(await trace(jobs.reader.id))).toContain(`Not uploading cache deps-${suffix} due to policy`);
    // The reader wrote vendor/y; the archive still holds what install saved.
    expect(archived(`deps-${suffix}`)).toEqual(['vendor/x']);
    // The archive was written whole and renamed: no temporary file is left beside it.
    expect(readdirSync(join(projectCache(), `deps-${suffix}`))).toEqual(['cache.zip']);
  });

  it('when: on_failure saves for a failed job; the on_success cache does not', async () => {
    const failing = plain(await trace(jobs.failing.id));
    expect(failing).toContain('Saving cache for failed job');
    expect(failing).toContain(`Creating cache failures-${suffix}...`);
    expect(failing).not.toContain(`Creating cache successes-${suffix}`);
    expect(archived(`failures-${suffix}`)).toEqual(['out/f']);
    expect(archived(`successes-${suffix}`)).toBeNull();
  });

  it('fallback_keys restore when the key has no cache', async () => {
    const fallback = plain(await trace(jobs.fallback.id));
    expect(fallback).toMatch(new RegExp(`Checking cache for nothing-here-${suffix}\\.\\.\\.\\n[^]*WARNING: Cache file does not exist\\nFailed to extract cache\\nChecking cache for deps-${suffix}\\.\\.\\.\\n[^]*Successfully extracted cache`));
    expect(fallback).toContain('from install');
    expect(archived(`nothing-here-${suffix}`)).toBeNull();
  });

  it('a key that climbs out with .. stays in the project\'s folder, with a warning', async () => {
    const sneaky = plain(await trace(jobs.sneaky.id));
    expect(sneaky).toContain(`WARNING: cache key "../../../escape-${suffix}" sanitized to "escape-${suffix}"`);
    expect(archived(`escape-${suffix}`)).toEqual(['kept/file']);
    expect(readdirSync(setup.work).filter((name) => name.includes('escape'))).toEqual([]);
    expect(readdirSync(cacheDir)).toEqual(['maintainer']);
  });

  it('a cache over the runner\'s limit is not saved, and the job still succeeds', async () => {
    const big = plain(await trace(jobs.big.id));
    expect(big).toContain(`WARNING: Cache big-${suffix} is over the runner's limit of 0.1 MiB: not saved`);
    expect(big).toContain('Failed to create cache');
    expect(archived(`big-${suffix}`)).toBeNull();
  });

  it('a key:files key changes with its file, and only with it', async () => {
    const first = plain(await trace(jobs['files-key'].id));
    firstFilesKey = /Creating cache ([0-9a-f]{40}-\w+)\.\.\./.exec(first)?.[1] ?? '';
    expect(firstFilesKey).toMatch(new RegExp(`-${suffix}$`));
    expect(first).toContain('runs=1');

    const changed = await finishedPipeline(await pushCommit('new lock', { '.gitlab-ci.yml': FILES_KEY_ONLY, 'lock.txt': 'v2\n' }));
    const second = plain(await trace(changed.jobs['files-key'].id));
    const secondKey = /Creating cache ([0-9a-f]{40}-\w+)\.\.\./.exec(second)?.[1] ?? '';
    expect(secondKey).toMatch(/^[0-9a-f]{40}-/);
    expect(secondKey).not.toBe(firstFilesKey);
    expect(second).toContain('WARNING: Cache file does not exist');
    expect(second).toContain('runs=1');

    const unrelated = await finishedPipeline(await pushCommit('readme only', { 'README.md': 'two\n' }));
    const third = plain(await trace(unrelated.jobs['files-key'].id));
    expect(third).toContain(`Checking cache for ${secondKey}...`);
    expect(third).toContain('Successfully extracted cache');
    expect(third).toContain('runs=2');
  }, 180_000);

  it('kiln runner refuses a --cache-max-size that is not a number of MiB', async () => {
    await expect(runnerCommand(['--url', setup.base, '--token', 't', '--cache-max-size', '0'], {}, () => undefined)).rejects.toThrow('--cache-max-size 0 is not a number of MiB');
  });
});
