// python-gitlab 3.12 (Debian) against a started `kiln serve`: its runner objects (legacy registration
// with gl.runners.create, verify, list, save) and its job objects (list, get, trace, retry, cancel,
// erase), with the runner's side of the protocol spoken here with fetch, as GitLab Runner would (issue 39).
// python-gitlab 3.12 has no gl.user.runners (POST /user/runners came later to it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;
let project: { id: number; path_with_namespace: string };

beforeAll(async () => {
  kiln = await startKilnProcess();
  const group = await apiCall(kiln, 'POST', '/groups', { name: 'ci', path: 'ci' });
  project = await apiCall(kiln, 'POST', '/projects', { name: 'app', path: 'app', namespace_id: group.id, initialize_with_readme: true });
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: 'build:\n  script: make\n', commit_message: 'ci [skip ci]' });
});
afterAll(async () => kiln?.stop());

const PYTHON_RUNNERS = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
out = {}
registration = gl.http_post("/projects/%d/runners/reset_registration_token" % p.id)["token"]
r = gl.runners.create({"token": registration, "description": "first", "tag_list": "linux,docker", "run_untagged": True})
out["created"] = r.attributes
try:
    gl.runners.create({"token": "not-a-registration-token"})
except gitlab.exceptions.GitlabCreateError as err:
    out["bad_registration"] = err.response_code
gl.runners.verify(r.token)
out["verified"] = True
try:
    gl.runners.verify("glrt-wrong")
except gitlab.exceptions.GitlabVerifyError as err:
    out["bad_verify"] = err.response_code
out["project_list"] = [[x.id, x.description] for x in p.runners.list()]
out["list"] = [[x.id, x.description, x.runner_type] for x in gl.runners.list()]
out["all"] = [x.id for x in gl.runners.all()]
runner = gl.runners.get(r.id)
runner.description = "renamed"
runner.tag_list = ["arm64", "linux"]
runner.paused = True
runner.save()
got = gl.runners.get(r.id)
out["saved"] = [got.description, sorted(got.tag_list), got.paused, got.active]
out["paused_list"] = [x.id for x in gl.runners.list(paused=True)]
got.paused = False
got.save()
out["unpaused"] = gl.runners.get(r.id).paused
out["token"] = r.token
print(json.dumps(out))
`;

const PYTHON_JOBS = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
out = {}
out["list"] = [[j.id, j.name, j.status] for j in p.jobs.list()]
job = p.jobs.get(int(os.environ["JOB"]))
out["job"] = {"name": job.name, "status": job.status, "stage": job.stage, "ref": job.ref, "runner": job.runner and job.runner["id"], "pipeline": job.pipeline["id"]}
out["trace"] = job.trace().decode()
retried = job.retry()
out["retried"] = {"name": retried["name"], "status": retried["status"], "new_id": retried["id"] != job.id}
new_job = p.jobs.get(retried["id"])
canceled = new_job.cancel()
out["canceled"] = canceled["status"]
new_job.refresh()
out["refreshed"] = new_job.status
out["scoped"] = [j.id for j in p.jobs.list(scope=["canceled"])]
job.erase()
job.refresh()
out["erased"] = [job.erased_at is not None, job.trace().decode()]
try:
    job.erase()
except gitlab.exceptions.GitlabJobEraseError as err:
    out["erase_again"] = [err.response_code, err.error_message]
try:
    p.jobs.get(999999)
except gitlab.exceptions.GitlabGetError as err:
    out["missing"] = err.response_code
print(json.dumps(out))
`;

async function runner(path: string, init: { method: string; headers?: Record<string, string>; body?: string | Record<string, unknown> }): Promise<Response> {
  const body = typeof init.body === 'object' ? JSON.stringify(init.body) : init.body;
  const headers = { ...(typeof init.body === 'object' ? { 'content-type': 'application/json' } : {}), ...init.headers };
  return fetch(`${kiln.url}/api/v4${path}`, { method: init.method, headers, body });
}

describe('python-gitlab 3.12 runners and jobs', () => {
  let runnerToken = '';
  let runnerId = 0;

  it('registers, verifies, lists and edits a runner', async () => {
    const { stdout } = await runPython(PYTHON_RUNNERS, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace });
    const out = JSON.parse(stdout);
    expect(out.created).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^[\w-]{20}$/), token_expires_at: null });
    runnerId = out.created.id;
    runnerToken = out.token;
    expect(out.bad_registration).toBe(403);
    expect(out.verified).toBe(true);
    expect(out.bad_verify).toBe(403);
    expect(out.project_list).toEqual([[runnerId, 'first']]);
    expect(out.list).toEqual([[runnerId, 'first', 'project_type']]);
    expect(out.all).toEqual([runnerId]);
    expect(out.saved).toEqual(['renamed', ['arm64', 'linux'], true, false]);
    expect(out.paused_list).toEqual([runnerId]);
    expect(out.unpaused).toBe(false);
  });

  it('lists, reads, retries and cancels jobs, and reads the log a runner wrote', async () => {
    expect(runnerToken).toHaveLength(20);
    const pipeline = await apiCall(kiln, 'POST', `/projects/${project.id}/pipeline?ref=main`);
    // The runner's side: take the job, append its log, report success.
    const request = await runner('/jobs/request', { method: 'POST', body: { token: runnerToken, info: { name: 'gitlab-runner', features: { trace_checksum: true } } } });
    expect(request.status).toBe(201);
    const job = (await request.json()) as { id: number; token: string; job_info: { name: string } };
    expect(job.job_info.name).toBe('build');
    const log = '$ make\nbuilt in 3 s\n';
    const patch = await runner(`/jobs/${job.id}/trace`, {
      method: 'PATCH', headers: { 'job-token': job.token, 'content-type': 'text/plain', 'content-range': `0-${Buffer.byteLength(log) - 1}` }, body: log,
    });
    expect(patch.status).toBe(202);
    expect(patch.headers.get('range')).toBe(`0-${Buffer.byteLength(log)}`);
    const put = await runner(`/jobs/${job.id}`, { method: 'PUT', body: { token: job.token, state: 'success', exit_code: 0 } });
    expect(put.status).toBe(200);

    const { stdout } = await runPython(PYTHON_JOBS, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace, JOB: String(job.id) });
    const out = JSON.parse(stdout);
    expect(out.list).toEqual([[job.id, 'build', 'success']]);
    expect(out.job).toEqual({ name: 'build', status: 'success', stage: 'test', ref: 'main', runner: runnerId, pipeline: pipeline.id });
    expect(out.trace).toBe(log);
    expect(out.retried).toEqual({ name: 'build', status: 'pending', new_id: true });
    expect(out.canceled).toBe('canceled');
    expect(out.refreshed).toBe('canceled');
    expect(out.scoped).toHaveLength(1);
    expect(out.scoped[0]).not.toBe(job.id);
    expect(out.erased).toEqual([true, '']);
    expect(out.erase_again).toEqual([403, '403 Forbidden - Job is not erasable!']);
    expect(out.missing).toBe(404);
  });
});
