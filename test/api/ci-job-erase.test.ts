// POST /projects/:id/jobs/:job_id/erase (GitLab's erase_build): a finished job's log and artifacts go
// and erased_at is set (201 with the job); a job not finished, or already erased, is "not erasable"
// (403); a Reporter may not, nor a Developer whose job it is not; a Maintainer may.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let runnerToken: string;

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln);
  const runner = await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'project_type', project_id: w.project.id, run_untagged: true } });
  runnerToken = runner.body.token;
  // The Developer commits the CI file (on a branch of their own: main is protected), so the job is theirs.
  await commit(kiln, w.owner.token, w.project.id, { branch: 'main', commit_message: 'README', actions: [create('README.md', 'app\n')] });
  await commit(kiln, w.developer.token, w.project.id, { branch: 'feature', start_branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', 'build:\n  script: make\n')] });
  await kiln.worker.drain();
});
afterAll(async () => kiln?.close());

const appendLog = (job: { id: number; token: string }, log: string) =>
  kiln.app.inject({ method: 'PATCH', url: `/api/v4/jobs/${job.id}/trace`, payload: log, headers: { 'content-type': 'text/plain', 'job-token': job.token, 'content-range': `0-${log.length - 1}` } });
const erase = (jobId: number, token: string) => kiln.api('POST', `/projects/${w.project.id}/jobs/${jobId}/erase`, { token });

describe('erasing a job', () => {
  it('erases a finished job once, for its Developer; not while it runs, nor for a Reporter', async () => {
    const claimed = await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runnerToken } });
    expect(claimed.statusCode).toBe(201);
    const job = claimed.json() as { id: number; token: string };
    const log = 'built\n';
    const patch = await appendLog(job, log);
    expect(patch.statusCode).toBe(202);
    expect((await erase(job.id, w.developer.token)).body).toEqual({ message: '403 Forbidden - Job is not erasable!' });
    expect((await kiln.request('PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } })).statusCode).toBe(200);

    expect((await erase(job.id, w.reporter.token)).status).toBe(403);
    const erased = await erase(job.id, w.developer.token);
    expect(erased.status).toBe(201);
    expect(erased.body).toMatchObject({ id: job.id, status: 'success', erased_at: expect.stringMatching(/^\d{4}-/) });
    const trace = await kiln.request('GET', `/api/v4/projects/${w.project.id}/jobs/${job.id}/trace`, { headers: { 'private-token': w.developer.token } });
    expect(trace.statusCode).toBe(200);
    expect(trace.body).toBe('');
    expect((await erase(job.id, w.maintainer.token)).body).toEqual({ message: '403 Forbidden - Job is not erasable!' });
    expect((await erase(999999, w.maintainer.token)).status).toBe(404);
  });

  it("refuses a Developer a job that is not theirs; a Maintainer may erase anyone's", async () => {
    const [first] = (await kiln.api('GET', `/projects/${w.project.id}/jobs`, { token: w.maintainer.token })).body as Array<{ id: number }>;
    // The Maintainer's retry is their job; it fails with a log.
    const retried = await kiln.api('POST', `/projects/${w.project.id}/jobs/${first.id}/retry`, { token: w.maintainer.token });
    const claimed = (await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runnerToken } })).json() as { id: number; token: string };
    expect(claimed.id).toBe(retried.body.id);
    expect((await appendLog(claimed, 'oops\n')).statusCode).toBe(202);
    await kiln.request('PUT', `/api/v4/jobs/${claimed.id}`, { body: { token: claimed.token, state: 'failed', failure_reason: 'script_failure' } });
    expect((await erase(claimed.id, w.developer.token)).body).toEqual({ message: '403 Forbidden' });
    const erased = await erase(claimed.id, w.owner.token);
    expect(erased.status).toBe(201);
    expect(erased.body.status).toBe('failed');
  });
});
