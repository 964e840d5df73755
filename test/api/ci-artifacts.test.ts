// Job artifacts API (issue 39): one file streamed out of a job's archive with Workhorse's content type
// and an attachment disposition (a large, highly compressed file too), the archive and one file of a
// ref's newest successful job of a name, GitLab's 400 and 404s, keep (no expiry; a Developer on a
// protected main refused) and delete (Maintainers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let job: { id: number; token: string };
let archive: Buffer;
const BIG = Buffer.alloc(6 * 1024 * 1024, 'a');
const REPORT = '<h1>report</h1>';

const runnerCall = (method: string, path: string, body: unknown) => kiln.request(method, `/api/v4${path}`, { body });
const get = (path: string, token = w.reporter.token) => kiln.app.inject({ method: 'GET', url: `/api/v4/projects/${w.project.id}${path}`, headers: { 'private-token': token } });

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln);
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', actions: [create('.gitlab-ci.yml', 'build:\n  script: make\n  artifacts: { paths: [out/] }\n')] });
  await kiln.worker.drain();
  const reset = await kiln.api('POST', `/projects/${w.project.id}/runners/reset_registration_token`, { token: w.maintainer.token });
  const runnerToken = (await runnerCall('POST', '/runners', { token: reset.body.token, description: 'artifacts runner' })).json().token;
  const requested = await runnerCall('POST', '/jobs/request', { token: runnerToken });
  expect(requested.statusCode).toBe(201);
  job = { id: requested.json().id, token: requested.json().token };
  archive = Buffer.from(zipSync({ 'out/report.html': Buffer.from(REPORT), 'out/app.bin': Buffer.from('binary'), 'out/big.txt': BIG, 'out/dir/': new Uint8Array(0) }));
  const boundary = '----kilnboundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="artifacts.zip"\r\nContent-Type: application/zip\r\n\r\n`),
    archive,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await kiln.app.inject({ method: 'POST', url: `/api/v4/jobs/${job.id}/artifacts?artifact_type=archive&artifact_format=zip&expire_in=1%20day`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'job-token': job.token } });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  expect((await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success' })).statusCode).toBe(200);
  await kiln.worker.drain();
});

afterAll(async () => {
  await kiln?.close();
});

describe('GET /projects/:id/jobs/:job_id/artifacts/*artifact_path', () => {
  it("streams one file with Workhorse's content type, as an attachment", async () => {
    const report = await get(`/jobs/${job.id}/artifacts/out/report.html`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(report.headers['content-disposition']).toBe('attachment; filename="report.html"');
    expect(report.headers['x-content-type-options']).toBe('nosniff');
    expect(report.body).toBe(REPORT);
    const binary = await get(`/jobs/${job.id}/artifacts/out/app.bin`);
    expect(binary.headers['content-type']).toBe('application/octet-stream');
    expect(binary.body).toBe('binary');
    const big = await get(`/jobs/${job.id}/artifacts/out/big.txt`);
    expect(big.statusCode).toBe(200);
    expect(big.rawPayload.equals(BIG)).toBe(true);
  });

  it("answers GitLab's 400 for a path climbing out and 404s", async () => {
    expect((await get(`/jobs/${job.id}/artifacts/out/..%2Fsecret`)).statusCode).toBe(400);
    expect((await get(`/jobs/${job.id}/artifacts/out/missing.txt`)).statusCode).toBe(404);
    expect((await get(`/jobs/${job.id}/artifacts/out/dir/`)).statusCode).toBe(404);
    expect((await get(`/jobs/${Number(job.id) + 100}/artifacts/out/app.bin`)).statusCode).toBe(404);
    expect((await get(`/jobs/${job.id}/artifacts/out/app.bin`, w.stranger.token)).statusCode).toBe(404);
    expect((await get(`/jobs/${job.id}/artifacts/out/app.bin`, w.guest.token)).statusCode).toBe(403);
  });
});

describe('the artifacts of a ref', () => {
  it("downloads the archive and a file of the ref's newest successful job of a name", async () => {
    const download = await get('/jobs/artifacts/main/download?job=build');
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(archive)).toBe(true);
    const raw = await get('/jobs/artifacts/main/raw/out/app.bin?job=build');
    expect(raw.statusCode).toBe(200);
    expect(raw.body).toBe('binary');
    const missing = await get('/jobs/artifacts/main/download?job=deploy');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: '404 Not found' });
    expect((await get('/jobs/artifacts/other/download?job=build')).statusCode).toBe(404);
    expect((await get('/jobs/artifacts/main/download')).statusCode).toBe(400);
  });
});

describe('the artifacts pages', () => {
  const signedIn = async (user: typeof w.maintainer) => {
    const web = new WebSession(kiln);
    await web.signIn(user.username, user.password);
    return web;
  };

  it('browses the archive a directory at a time and downloads one file', async () => {
    const job_ = `/${w.project.path_with_namespace}/-/jobs/${job.id}`;
    const web = await signedIn(w.reporter);
    const root = await web.get(`${job_}/artifacts/browse`);
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain(`href="${job_}/artifacts/browse/out">out/</a>`);
    const out = await web.get(`${job_}/artifacts/browse/out`);
    expect(out.body).toContain(`href="${job_}/artifacts/raw/out/report.html" download>report.html</a>`);
    expect(out.body).toContain(`href="${job_}/artifacts/browse/out/dir">dir/</a>`);
    expect(out.body).toContain(`href="${job_}/artifacts/browse">..</a>`);
    const file = await web.get(`${job_}/artifacts/raw/out/report.html`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="report.html"');
    expect(file.body).toBe(REPORT);
    expect((await web.get(`${job_}/artifacts/raw/out/missing`)).statusCode).toBe(404);
    expect((await web.get(`${job_}/artifacts/browse/nowhere`)).statusCode).toBe(404);
    expect((await (await signedIn(w.stranger)).get(`${job_}/artifacts/browse`)).statusCode).toBe(404);
  });

  it('offers Keep to whom may update the protected main, Delete to Maintainers', async () => {
    const job_ = `/${w.project.path_with_namespace}/-/jobs/${job.id}`;
    const developer = await (await signedIn(w.developer)).get(job_);
    expect(developer.body).toContain('id="job-artifacts"');
    expect(developer.body).not.toContain(`action="${job_}/artifacts/keep"`);
    expect(developer.body).not.toContain(`action="${job_}/artifacts/destroy"`);
    const maintainer = await signedIn(w.maintainer);
    const page = await maintainer.get(job_);
    expect(page.body).toContain(`action="${job_}/artifacts/keep"`);
    expect(page.body).toContain(`action="${job_}/artifacts/destroy"`);
    expect((await (await signedIn(w.developer)).post(`${job_}/artifacts/keep`, {}, { csrfFrom: job_ })).statusCode).toBe(403);
  });
});

describe('keep and delete', () => {
  it('keeps the artifacts from expiring: Developers on a protected main are refused', async () => {
    expect((await kiln.api('POST', `/projects/${w.project.id}/jobs/${job.id}/artifacts/keep`, { token: w.developer.token })).status).toBe(403);
    const kept = await kiln.api('POST', `/projects/${w.project.id}/jobs/${job.id}/artifacts/keep`, { token: w.maintainer.token });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ id: job.id, status: 'success' });
    const row = await kiln.deps.db.selectFrom('ci_job_artifacts').select('expire_at').where('build_id', '=', job.id).executeTakeFirstOrThrow();
    expect(row.expire_at).toBeNull();
  });

  it('deletes them for Maintainers; afterwards every download is a 404', async () => {
    expect((await kiln.api('DELETE', `/projects/${w.project.id}/jobs/${job.id}/artifacts`, { token: w.developer.token })).status).toBe(403);
    expect((await kiln.api('DELETE', `/projects/${w.project.id}/jobs/${job.id}/artifacts`, { token: w.maintainer.token })).status).toBe(204);
    expect((await get(`/jobs/${job.id}/artifacts/out/app.bin`)).statusCode).toBe(404);
    expect((await get(`/jobs/${job.id}/artifacts`)).statusCode).toBe(404);
    expect((await kiln.api('POST', `/projects/${w.project.id}/jobs/${job.id}/artifacts/keep`, { token: w.maintainer.token })).status).toBe(404);
  });
});
