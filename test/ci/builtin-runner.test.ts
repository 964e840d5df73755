// `kiln serve` with KILN_BUILTIN_RUNNER=1 (issue 39): the real process registers an instance runner
// at its first start, runs `kiln runner` as a child process, and a project pushed with git runs its
// .gitlab-ci.yml to green with nothing else set up. The child stops with the server, and a restart
// reuses the stored token (one runner, not one per start); the jobs' caches are kept under
// <data>/ci/cache. Needs `npm run build` (dist/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { gitCommands } from '../helpers/git.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { alive, childDatabaseEnv, childrenOf, waitFor } from '../platform/process-helpers.js';

let testDb: TestDatabase;
let kiln: KilnProcess;
let work: string;
const { ok } = gitCommands(() => work);
const env = () => ({ KILN_BUILTIN_RUNNER: '1', KILN_LOG_LEVEL: 'info', ...childDatabaseEnv(testDb) });

const CONFIG = `
stages: [build, test]
build:
  stage: build
  script:
    - echo "built $CI_COMMIT_SHORT_SHA" > out.txt
  artifacts:
    paths: [out.txt]
  cache:
    key: built
    paths: [out.txt]
test:
  stage: test
  script:
    - grep built out.txt
    - test -z "$KILN_RUNNER_TOKEN"
`;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-builtin-runner-'));
  testDb = await createTestDatabase();
  kiln = await startKilnProcess({ dataDir: testDb.dataDir, env: env() });
}, 180_000);

afterAll(async () => {
  await kiln?.stop();
  await testDb?.database.close();
  await testDb?.drop();
  rmSync(work, { recursive: true, force: true });
});

describe('kiln serve with KILN_BUILTIN_RUNNER=1', () => {
  let runnerId: number;
  let runnerPid: number;

  it('registers one instance runner, its token stored in the data dir (0600)', async () => {
    await kiln.waitForOutput(/asking http:\/\/127\.0\.0\.1:\d+ for jobs/, 60_000);
    const runners = await apiCall(kiln, 'GET', '/runners/all');
    expect(runners.map((runner: any) => [runner.runner_type, runner.description.startsWith('kiln serve built-in runner')])).toEqual([['instance_type', true]]);
    runnerId = runners[0].id;
    const tokenFile = join(kiln.dataDir, 'ci', 'builtin-runner.token');
    expect(readFileSync(tokenFile, 'utf8')).toMatch(/^glrt-\S+\n$/);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const children = childrenOf(kiln.child.pid!);
    expect(children).toHaveLength(1);
    runnerPid = children[0];
    // The token is in the child's environment, not its command line.
    expect(readFileSync(`/proc/${runnerPid}/cmdline`, 'utf8')).not.toContain('glrt-');
  }, 90_000);

  it('runs a pushed project\'s pipeline to green', async () => {
    const project = await apiCall(kiln, 'POST', '/projects', { name: 'app' });
    const dir = join(work, 'clone');
    await ok(['clone', '-q', `${kiln.url.replace('http://', `http://root:${kiln.rootToken}@`)}/root/app.git`, dir]);
    writeFileSync(join(dir, '.gitlab-ci.yml'), CONFIG);
    await ok(['add', '.'], dir);
    await ok(['commit', '-q', '-m', 'ci'], dir);
    await ok(['push', '-q', 'origin', 'HEAD:main'], dir);
    const pipeline = await waitFor('the pipeline to end', async () => {
      const [found] = await apiCall(kiln, 'GET', `/projects/${project.id}/pipelines`);
      return found && ['success', 'failed', 'canceled'].includes(found.status) ? found : undefined;
    }, 150_000);
    const jobs = await apiCall(kiln, 'GET', `/projects/${project.id}/pipelines/${pipeline.id}/jobs`);
    expect({ status: pipeline.status, jobs: jobs.map((job: any) => [job.name, job.status, job.runner?.id]).sort() }).toEqual({
      status: 'success',
      jobs: [['build', 'success', runnerId], ['test', 'success', runnerId]],
    });
    // The built-in runner keeps caches in the data dir: <data>/ci/cache/<project path>/<key>/cache.zip.
    const keys = readdirSync(join(kiln.dataDir, 'ci', 'cache', 'root', 'app'));
    expect(keys).toEqual([expect.stringMatching(/^built-(protected|non_protected)$/)]);
    expect(statSync(join(kiln.dataDir, 'ci', 'cache', 'root', 'app', keys[0], 'cache.zip')).size).toBeGreaterThan(0);
  }, 180_000);

  it('stops the runner with the server, and a restart reuses the stored runner', async () => {
    await kiln.stop();
    expect(alive(runnerPid)).toBe(false);
    kiln = await startKilnProcess({ dataDir: testDb.dataDir, env: env(), rootToken: kiln.rootToken });
    await kiln.waitForOutput(/asking http:\/\/127\.0\.0\.1:\d+ for jobs/, 60_000);
    const runners = await apiCall(kiln, 'GET', '/runners/all');
    expect(runners.map((runner: any) => runner.id)).toEqual([runnerId]);
  }, 240_000);

  it('a server killed with SIGKILL takes its runner with it', async () => {
    const [pid] = childrenOf(kiln.child.pid!);
    expect(pid).toBeGreaterThan(0);
    await kiln.kill9();
    await waitFor('the runner to exit', () => !alive(pid), 20_000);
  }, 60_000);
});
