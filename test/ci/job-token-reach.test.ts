// CI_JOB_TOKEN beyond git (issue 39): the API routes GitLab marks `job_token_allowed` take a running
// job's token (`JOB-TOKEN` header or `job_token` parameter) and act as the job's user — the job
// itself (GET /job), artifacts downloads, releases — only on projects the job's project may reach
// (its own, or a project whose job token scope lists it or a group it is in: GitLab's 403 otherwise),
// nowhere else (other routes ignore the token), and not once the job ended (401). The scope's group
// allowlist is managed as GitLab's /projects/:id/job_token_scope/groups_allowlist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from '../api/repository-api-driver.js';
import { multipart } from '../helpers/multipart.js';
import { jobTokenWorld } from './running-job.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let other: any;
let elsewhere: any;
let job: { id: number; token: string };

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln);
  ({ other, job } = await jobTokenWorld(kiln, w));
  elsewhere = await kiln.createGroup(w.owner, 'elsewhere', { visibility: 'private' });
  // The maintainer of `other` who manages its scope can see both groups; a developer of it cannot manage it.
  await kiln.addMember(w.owner, 'groups', elsewhere.id, w.maintainer, ACCESS.reporter);
  await kiln.addMember(w.owner, 'groups', w.group.id, w.maintainer, ACCESS.reporter);
  await kiln.addMember(w.owner, 'projects', other.id, w.developer, ACCESS.developer);
  // The job uploads an archive, as a runner does.
  const { payload, contentType } = await multipart({ file: { filename: 'artifacts.zip', data: Buffer.from('PK-not-really-a-zip') } });
  const uploaded = await kiln.app.inject({ method: 'POST', url: `/api/v4/jobs/${job.id}/artifacts`, headers: { 'job-token': job.token, 'content-type': contentType }, payload });
  expect(uploaded.statusCode).toBe(201);
}, 120_000);

afterAll(async () => {
  await kiln?.close();
});

/** A call with the job token in the `JOB-TOKEN` header (or, with `param`, in `job_token`). */
async function withJobToken(method: string, path: string, options: { body?: unknown; param?: boolean; token?: string } = {}) {
  const token = options.token ?? job.token;
  const url = `/api/v4${path}${options.param ? `${path.includes('?') ? '&' : '?'}job_token=${encodeURIComponent(token)}` : ''}`;
  const response = await kiln.app.inject({
    method: method as 'GET', url,
    headers: { ...(options.param ? {} : { 'job-token': token }), ...(options.body ? { 'content-type': 'application/json' } : {}) },
    ...(options.body ? { payload: JSON.stringify(options.body) } : {}),
  });
  const text = response.body;
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (an archive)
  }
  return { status: response.statusCode, body, raw: response.rawPayload };
}

const scope = (method: string, path: string, body?: unknown, token = w.maintainer.token) => kiln.api(method, `/projects/${other.id}/job_token_scope${path}`, { token, body });
const refused = (target: any) => ({ message: `403 Forbidden - Authentication by CI/CD job token not allowed from ${w.project.path} to ${target.path}.` });

describe('CI_JOB_TOKEN on the API', () => {
  it('GET /job answers the job itself, by header or parameter', async () => {
    expect((await withJobToken('GET', '/job')).body).toMatchObject({ id: job.id, status: 'running', user: { username: w.maintainer.username } });
    expect((await withJobToken('GET', '/job', { param: true })).body.id).toBe(job.id);
    expect((await withJobToken('GET', '/job', { token: 'not-a-token' })).status).toBe(401);
  });

  it("downloads its own project's artifacts, by header or parameter", async () => {
    for (const param of [false, true]) {
      const archive = await withJobToken('GET', `/projects/${w.project.id}/jobs/${job.id}/artifacts`, { param });
      expect([archive.status, archive.raw.toString()]).toEqual([200, 'PK-not-really-a-zip']);
    }
  });

  it("creates and reads its own project's releases as the job's user", async () => {
    const created = await withJobToken('POST', `/projects/${w.project.id}/releases`, { body: { tag_name: 'v1.0.0', ref: 'main', name: 'One' } });
    expect([created.status, created.body.tag_name, created.body.author?.username]).toEqual([201, 'v1.0.0', w.maintainer.username]);
    expect((await withJobToken('GET', `/projects/${w.project.id}/releases`, { param: true })).body.map((release: any) => release.tag_name)).toEqual(['v1.0.0']);
  });

  it('is no credential on routes that do not take it: the caller is anonymous there', async () => {
    expect((await withJobToken('GET', `/projects/${w.project.id}/issues`)).body).toEqual({ message: '404 Project Not Found' });
    expect((await withJobToken('GET', `/projects/${w.project.id}`)).status).toBe(404);
    expect((await withJobToken('GET', '/user')).status).toBe(401);
  });

  it("reaches another project only through that project's job token scope: its project or group allowlist", async () => {
    const releases = () => withJobToken('GET', `/projects/${other.id}/releases`);
    expect(await releases()).toEqual(expect.objectContaining({ status: 403, body: refused(other) }));
    // The group allowlist: a group the job's project is not in changes nothing; its own group opens it.
    expect((await scope('POST', '/groups_allowlist', { target_group_id: elsewhere.id })).status).toBe(201);
    expect((await releases()).status).toBe(403);
    const added = await scope('POST', '/groups_allowlist', { target_group_id: w.group.id });
    expect([added.status, added.body]).toEqual([201, { source_project_id: other.id, target_group_id: w.group.id }]);
    expect((await releases()).status).toBe(200);
    expect((await scope('GET', '/groups_allowlist')).body).toEqual([
      { id: w.group.id, web_url: `http://kiln.test/groups/${w.group.full_path}`, name: w.group.name },
      { id: elsewhere.id, web_url: `http://kiln.test/groups/${elsewhere.full_path}`, name: elsewhere.name },
    ].sort((a, b) => a.id - b.id));
    expect((await scope('DELETE', `/groups_allowlist/${w.group.id}`)).status).toBe(204);
    expect((await releases()).status).toBe(403);
    // The project allowlist opens it too.
    expect((await scope('POST', '/allowlist', { target_project_id: w.project.id })).status).toBe(201);
    expect((await releases()).status).toBe(200);
    expect((await scope('DELETE', `/allowlist/${w.project.id}`)).status).toBe(204);
    expect((await releases()).status).toBe(403);
  });

  it("manages the group allowlist in GitLab's words (Maintainers)", async () => {
    expect((await scope('POST', '/groups_allowlist', { target_group_id: elsewhere.id })).body).toEqual({ message: '400 Bad request - Target group is already in the job token scope' });
    expect((await scope('POST', '/groups_allowlist', { target_group_id: 999999 })).body).toEqual({ message: '404 target_group_id not found Not Found' });
    expect((await scope('POST', '/groups_allowlist', {})).body).toEqual({ error: 'target_group_id is missing' });
    expect((await scope('DELETE', `/groups_allowlist/${w.group.id}`)).body).toEqual({ message: '400 Bad request - Target group is not in the job token scope' });
    expect((await scope('GET', '/groups_allowlist', undefined, w.developer.token)).status).toBe(403);
    expect((await scope('DELETE', `/groups_allowlist/${elsewhere.id}`)).status).toBe(204);
    expect((await scope('GET', '/groups_allowlist')).body).toEqual([]);
  });

  it('is refused once the job ended', async () => {
    const finished = await kiln.app.inject({ method: 'PUT', url: `/api/v4/jobs/${job.id}`, headers: { 'job-token': job.token, 'content-type': 'application/json' }, payload: JSON.stringify({ state: 'success' }) });
    expect(finished.statusCode).toBe(200);
    expect((await withJobToken('GET', '/job')).status).toBe(401);
    expect((await withJobToken('GET', `/projects/${w.project.id}/jobs/${job.id}/artifacts`)).status).toBe(401);
    expect((await withJobToken('GET', `/projects/${w.project.id}/releases`)).body).toEqual({ message: '401 Unauthorized' });
    expect((await withJobToken('POST', `/projects/${w.project.id}/releases`, { body: { tag_name: 'v2.0.0', ref: 'main' } })).status).toBe(401);
  });
});
