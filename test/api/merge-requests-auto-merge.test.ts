// Merge when pipeline succeeds (issue 34): `PUT …/merge` with merge_when_pipeline_succeeds while the
// head pipeline (external commit statuses) runs arms an automatic merge that the pipeline's success
// performs as the user who armed it; a push disarms it, a failure does not, a cancel does. On SQLite
// and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { enqueue } from '../../src/platform/jobs/queue.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let w: RepositoryWorld;

const status = (sha: string, ref: string, state: string) => kiln.apiAs(w.developer, 'POST', `/projects/${w.project.id}/statuses/${sha}`, { state, name: 'test', ref });
const systemNotes = async (base: string) => (await kiln.apiAs(w.reporter, 'GET', `${base}/notes?sort=asc`)).filter((note: any) => note.system).map((note: any) => note.body);

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
}, 90_000);

afterAll(async () => {
  await kiln?.close();
});

async function runningMergeRequest(branch: string): Promise<{ mr: any; base: string }> {
  await branchWith(kiln, w.developer, w.project.id, branch, [create(`${branch}.txt`, 'one\n')]);
  const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: branch, title: `Change ${branch}` });
  await kiln.worker.drain();
  await status(mr.sha, branch, 'running');
  return { mr, base: `/projects/${w.project.id}/merge_requests/${mr.iid}` };
}

describe('merge when pipeline succeeds', () => {
  it('arms while the pipeline runs, survives a failure, and merges as the arming user when a status succeeds', async () => {
    const { mr, base } = await runningMergeRequest('auto');
    expect((await kiln.api('PUT', `${base}/merge`, { token: w.maintainer.token, body: { merge_when_pipeline_succeeds: true, sha: 'f'.repeat(40) } })).status).toBe(409);
    const armed = await kiln.apiAs(w.maintainer, 'PUT', `${base}/merge`, { merge_when_pipeline_succeeds: true, squash: true, should_remove_source_branch: true });
    expect(armed).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: w.maintainer.username }, detailed_merge_status: 'ci_still_running' });
    expect(await systemNotes(base)).toContain(`enabled an automatic merge when the pipeline for ${mr.sha} succeeds`);
    await status(mr.sha, 'auto', 'failed');
    await kiln.worker.drain();
    expect(await kiln.apiAs(w.developer, 'GET', base)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });
    await status(mr.sha, 'auto', 'success');
    // As if a second process had been told too: two merge jobs drained at once merge once.
    await enqueue(kiln.deps.db, kiln.clock, 'merge_requests.auto_merge', { mergeRequestId: mr.id });
    await Promise.all([kiln.worker.drain(), kiln.worker.drain()]);
    const merged = await kiln.apiAs(w.developer, 'GET', base);
    expect(merged).toMatchObject({ state: 'merged', merged_by: { username: w.maintainer.username }, merge_user: { username: w.maintainer.username } });
    expect(merged.squash_commit_sha).not.toBeNull();
    expect((await kiln.api('GET', `/projects/${w.project.id}/repository/branches/auto`, { token: w.developer.token })).status).toBe(404);
    const merges = await kiln.deps.db.selectFrom('events').select('id').where('action', '=', 'merged').where('target_id', '=', mr.id).execute();
    expect(merges).toHaveLength(1);
  }, 90_000);

  it('is disarmed by a push to the source branch', async () => {
    const { mr, base } = await runningMergeRequest('pushed');
    await kiln.apiAs(w.maintainer, 'PUT', `${base}/merge`, { merge_when_pipeline_succeeds: true });
    await branchWith(kiln, w.developer, w.project.id, 'pushed', [create('more.txt', 'two\n')]);
    await kiln.worker.drain();
    expect(await kiln.apiAs(w.developer, 'GET', base)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false });
    expect(await systemNotes(base)).toContain('aborted the automatic merge because source branch was updated');
    await status(mr.sha, 'pushed', 'success');
    await kiln.worker.drain();
    expect((await kiln.apiAs(w.developer, 'GET', base)).state).toBe('opened');
  }, 90_000);

  it('is disarmed by cancel (the author or a merger); refused without a pipeline', async () => {
    const { mr: other, base: otherBase } = await runningMergeRequest('cancelled');
    await kiln.apiAs(w.maintainer, 'PUT', `${otherBase}/merge`, { merge_when_pipeline_succeeds: true });
    expect((await kiln.api('POST', `${otherBase}/cancel_merge_when_pipeline_succeeds`, { token: w.reporter.token })).status).toBe(401);
    const cancelled = await kiln.api('POST', `${otherBase}/cancel_merge_when_pipeline_succeeds`, { token: w.developer.token });
    expect(cancelled.status).toBe(201);
    expect(cancelled.body).toMatchObject({ merge_when_pipeline_succeeds: false, state: 'opened' });
    expect(await systemNotes(otherBase)).toContain('canceled the automatic merge');
    expect((await kiln.apiAs(w.developer, 'POST', `${otherBase}/cancel_merge_when_pipeline_succeeds`))).toEqual({ status: 'error', message: "Can't cancel the automatic merge", http_status: 406 });
    await status(other.sha, 'cancelled', 'success');
    await kiln.worker.drain();
    expect((await kiln.apiAs(w.developer, 'GET', otherBase)).state).toBe('opened');

    await branchWith(kiln, w.developer, w.project.id, 'no-ci', [create('no-ci.txt', 'x\n')]);
    const plain = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'no-ci' });
    await kiln.worker.drain();
    expect((await kiln.api('PUT', `/projects/${w.project.id}/merge_requests/${plain.iid}/merge`, { token: w.maintainer.token, body: { merge_when_pipeline_succeeds: true } })).status).toBe(405);
  }, 90_000);

  it('is set and cancelled from the merge request page, by those who may merge', async () => {
    const { mr, base } = await runningMergeRequest('paged');
    const self = `/${w.project.path_with_namespace}/-/merge_requests/${mr.iid}`;
    const session = async (user: typeof w.maintainer) => {
      const web = new WebSession(kiln);
      await web.signIn(user.username, user.password);
      return web;
    };
    const maintainer = await session(w.maintainer);
    const reporter = await session(w.reporter);
    const widget = (await maintainer.get(`${self}/widget`)).body;
    expect(widget).toContain('id="auto-merge-button"');
    expect(widget).toContain('name="auto_merge" value="1"');
    expect(widget).not.toContain('id="merge-button"');
    expect((await reporter.get(`${self}/widget`)).body).not.toContain('auto-merge-button');
    const set = await maintainer.post(`${self}/merge`, { sha: mr.sha, auto_merge: '1', squash: '1' }, { csrfFrom: self });
    expect(set.statusCode).toBe(303);
    expect(await kiln.apiAs(w.developer, 'GET', base)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: w.maintainer.username } });
    const armed = (await reporter.get(`${self}/widget`)).body;
    expect(armed).toContain('id="auto-merge-state"');
    expect(armed).toContain(`Set by <a href="/${w.maintainer.username}">`);
    expect(armed).not.toContain('id="cancel-auto-merge"');
    expect((await maintainer.get(`${self}/widget`)).body).toContain('id="cancel-auto-merge"');
    expect((await reporter.post(`${self}/cancel_auto_merge`, {}, { csrfFrom: self })).statusCode).toBe(403);
    expect((await maintainer.post(`${self}/cancel_auto_merge`, {}, { csrfFrom: self })).statusCode).toBe(303);
    expect(await kiln.apiAs(w.developer, 'GET', base)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false });
    expect((await systemNotes(base)).slice(-1)).toEqual(['canceled the automatic merge']);
    expect((await maintainer.get(`${self}/widget`)).body).toContain('id="auto-merge-button"');
  }, 90_000);
});
