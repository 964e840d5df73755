// What `kiln runner` does besides running scripts to their end: a job canceled on the server is
// stopped (its whole process group killed, nothing more reported), a job past its timeout is killed
// and failed with `job_execution_timeout`, and `kiln runner register` turns a registration token into
// a runner (and refuses bad calls with one line).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { listenOnLoopback } from '../helpers/git.js';
import { startRunner, runnerCommand, type RunningRunner } from '../../src/runner/index.js';
import type { JobResult } from '../../src/runner/protocol-client.js';
import { commit, create } from '../api/repository-api-driver.js';
import { liveGroupMembers } from '../platform/process-helpers.js';

let kiln: TestKiln;
let work: string;
let base: string;
let maintainer: TestUser;
let project: any;
let runner: RunningRunner;
const results = new Map<number, JobResult | null>();

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const jobNamed = async (name: string) => (await kiln.apiAs(maintainer, 'GET', `/projects/${project.id}/jobs`)).find((job: any) => job.name === name);
const trace = async (jobId: number) => (await kiln.api('GET', `/projects/${project.id}/jobs/${jobId}/trace`, { token: maintainer.token })).body as string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-runner-control-'));
  kiln = await testKiln();
  base = await listenOnLoopback(kiln.app);
  maintainer = await kiln.createUser('maintainer');
  project = await kiln.createProject(maintainer, 'app');
  const created = await kiln.apiAs(maintainer, 'POST', '/user/runners', { runner_type: 'project_type', project_id: project.id });
  runner = await startRunner({
    url: base, token: created.token, cloneUrl: base, concurrent: 2, buildsDir: join(work, 'builds'), baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work },
    // These tests read a running job's log and cancel it while nobody has its page open, when the server
    // asks for a send every 60 s: the runner is told to send at least every 200 ms whatever it asks.
    traceIntervalMs: 200, traceMaxIntervalMs: 200, keepAliveMs: 200, onJob: (id, result) => results.set(id, result),
  });
  await commit(kiln, maintainer.token, project.id, {
    branch: 'main',
    actions: [create('.gitlab-ci.yml', `
slow:
  script:
    - echo "group $$"
    - sleep 120
capped:
  timeout: 2s
  script:
    - echo capped
    - sleep 120
`)],
  });
  await kiln.worker.drain();
}, 60_000);

afterAll(async () => {
  await runner?.stop();
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('kiln runner', () => {
  it('kills the process group of a job canceled on the server and reports nothing more', async () => {
    const job = await until('the slow job to print its group', async () => {
      const found = await jobNamed('slow');
      return found?.status === 'running' && /group \d+/.test(await trace(found.id)) ? found : undefined;
    });
    const pgid = Number(/group (\d+)/.exec(await trace(job.id))![1]);
    expect(liveGroupMembers(pgid).length).toBeGreaterThan(0);
    await kiln.apiAs(maintainer, 'POST', `/projects/${project.id}/jobs/${job.id}/cancel`);
    await until('the runner to give the job up', () => (results.has(job.id) ? true : undefined));
    expect(results.get(job.id)).toBeNull();
    expect(liveGroupMembers(pgid)).toEqual([]);
    expect((await kiln.apiAs(maintainer, 'GET', `/projects/${project.id}/jobs/${job.id}`)).status).toBe('canceled');
  }, 120_000);

  it('kills a job past its timeout and fails it with job_execution_timeout', async () => {
    const job = await until('the capped job to end', async () => {
      const found = await jobNamed('capped');
      return found && results.has(found.id) ? found : undefined;
    });
    expect(results.get(job.id)).toEqual({ state: 'failed', failureReason: 'job_execution_timeout' });
    expect(await kiln.apiAs(maintainer, 'GET', `/projects/${project.id}/jobs/${job.id}`)).toMatchObject({ status: 'failed', failure_reason: 'job_execution_timeout' });
    expect(await trace(job.id)).toContain('ERROR: Job failed: execution took longer than 2 seconds');
  }, 120_000);
});

describe('kiln runner register', () => {
  it('registers with a registration token and prints the token once', async () => {
    const registration = await kiln.apiAs(maintainer, 'POST', `/projects/${project.id}/runners/reset_registration_token`);
    const lines: string[] = [];
    await runnerCommand(['register', '--url', base, '--registration-token', registration.token, '--description', 'laptop', '--tag-list', 'linux,bash'], {}, (line) => lines.push(line));
    const token = /its token \(shown once\): (\S+)/.exec(lines.join('\n'))?.[1];
    expect(token).toBeDefined();
    expect((await kiln.api('POST', '/runners/verify', { body: { token } })).status).toBe(200);
    const runners = await kiln.apiAs(maintainer, 'GET', `/projects/${project.id}/runners`);
    expect(runners.find((one: any) => one.description === 'laptop')).toBeDefined();
  });

  it('refuses bad calls and bad tokens', async () => {
    await expect(runnerCommand(['--url', base], {}, () => undefined)).rejects.toThrow('--url and --token are required');
    await expect(runnerCommand(['--url', 'ftp://x', '--token', 't'], {}, () => undefined)).rejects.toThrow('is not an http(s) URL');
    await expect(runnerCommand(['--url', base, '--token', 't', '--concurrent', '0'], {}, () => undefined)).rejects.toThrow('--concurrent 0');
    await expect(runnerCommand(['--url', base, '--token', 'glrt-wrong'], {}, () => undefined)).rejects.toThrow('the runner token is not valid: 403');
    await expect(runnerCommand(['register', '--url', base, '--registration-token', 'wrong'], {}, () => undefined)).rejects.toThrow('registration refused: 403');
  });
});
