// Time tracking of issues and merge requests (issue 34): estimates and spent time through GitLab's
// TimeTrackingEndpoints, summed from timelogs into time_stats and the entities, with system notes and
// the Issue Hook / Merge Request Hook `changes`, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let issueBase: string;
let mrBase: string;
let receiver: HookReceiver;
const received: Received[] = [];

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request));
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
  const hook = await kiln.api('POST', `/projects/${w.project.id}/hooks`, { token: w.maintainer.token, body: { url: `${receiver.url}/hook`, push_events: false, issues_events: true, merge_requests_events: true } });
  expect(hook.status).toBe(201);
  await seedRepository(kiln, w.owner, w.project.id);
  await branchWith(kiln, w.developer, w.project.id, 'feature', [create('feature.txt', 'one\n')]);
  const issue = await kiln.apiAs(w.developer, 'POST', `/projects/${w.project.id}/issues`, { title: 'Tracked' });
  issueBase = `/projects/${w.project.id}/issues/${issue.iid}`;
  const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'feature', title: 'Tracked' });
  mrBase = `/projects/${w.project.id}/merge_requests/${mr.iid}`;
});

afterAll(async () => {
  await kiln?.close();
  await receiver?.close();
});

const systemNotes = async (base: string) =>
  (await kiln.apiAs(w.reporter, 'GET', `${base}/notes?sort=asc&per_page=100`)).filter((note: any) => note.system).map((note: any) => note.body);

describe.each([
  ['an issue', () => issueBase],
  ['a merge request', () => mrBase],
])('time tracking of %s', (_kind, baseOf) => {
  it('adds, subtracts and resets spent time, summed into time_stats and the entity, with GitLab\'s system notes', async () => {
    const base = baseOf();
    const spend = (duration: unknown, body: Record<string, unknown> = {}) => kiln.api('POST', `${base}/add_spent_time`, { token: w.developer.token, body: { duration, ...body } });
    expect(await spend('1h30m', { summary: 'review' })).toMatchObject({ status: 201, body: { time_estimate: 0, total_time_spent: 5400, human_time_estimate: null, human_total_time_spent: '1h 30m' } });
    expect((await spend('1d')).body).toMatchObject({ total_time_spent: 5400 + 8 * 3600, human_total_time_spent: '1d 1h 30m' });
    expect((await spend('-30m')).body).toMatchObject({ total_time_spent: 8 * 3600 + 3600, human_total_time_spent: '1d 1h' });
    expect(await kiln.apiAs(w.reporter, 'GET', `${base}/time_stats`)).toEqual({ time_estimate: 0, total_time_spent: 9 * 3600, human_time_estimate: null, human_total_time_spent: '1d 1h' });
    expect((await kiln.apiAs(w.reporter, 'GET', base)).time_stats).toMatchObject({ total_time_spent: 9 * 3600, human_total_time_spent: '1d 1h' });
    const [listed] = (await kiln.apiAs(w.reporter, 'GET', `${base.slice(0, base.lastIndexOf('/'))}?search=Tracked`));
    expect(listed.time_stats.total_time_spent).toBe(9 * 3600);

    expect(await spend('-2d')).toMatchObject({ status: 400, body: { message: { base: ['Time to subtract exceeds the total time spent'] } } });
    for (const bad of ['soon', '', '0', '3 parsecs']) expect(await spend(bad), bad).toMatchObject({ status: 400, body: { error: 'duration is invalid' } });
    expect((await kiln.api('POST', `${base}/add_spent_time`, { token: w.developer.token, body: {} })).body).toEqual({ error: 'duration is missing' });
    expect((await kiln.api('POST', `${base}/add_spent_time`, { token: w.guest.token, body: { duration: '1h' } })).status).toBe(403);

    expect(await kiln.api('POST', `${base}/reset_spent_time`, { token: w.developer.token })).toMatchObject({ status: 200, body: { total_time_spent: 0, human_total_time_spent: null } });
    expect((await kiln.apiAs(w.reporter, 'GET', `${base}/time_stats`)).total_time_spent).toBe(0);
    expect((await systemNotes(base)).slice(-4)).toEqual(['added 1h 30m of time spent', 'added 1d of time spent', 'subtracted 30m of time spent', 'removed time spent']);
  });

  it('sets and resets the estimate beside the time spent', async () => {
    const base = baseOf();
    await kiln.api('POST', `${base}/add_spent_time`, { token: w.developer.token, body: { duration: '2h' } });
    expect(await kiln.api('POST', `${base}/time_estimate`, { token: w.developer.token, body: { duration: '1w 3h' } })).toMatchObject({
      status: 200, body: { time_estimate: 43 * 3600, total_time_spent: 7200, human_time_estimate: '1w 3h', human_total_time_spent: '2h' },
    });
    expect((await kiln.api('POST', `${base}/time_estimate`, { token: w.developer.token, body: { duration: 'soon' } })).body).toEqual({ message: { time_estimate: ['must have a valid format and be greater than or equal to zero.'] } });
    expect((await kiln.apiAs(w.reporter, 'GET', base)).time_stats).toEqual({ time_estimate: 43 * 3600, total_time_spent: 7200, human_time_estimate: '1w 3h', human_total_time_spent: '2h' });
    expect(await kiln.api('POST', `${base}/reset_time_estimate`, { token: w.developer.token })).toMatchObject({ status: 200, body: { time_estimate: 0, total_time_spent: 7200 } });
    expect((await systemNotes(base)).slice(-2)).toEqual(['changed time estimate to 1w 3h', 'removed time estimate']);
  });

  it('is 404 to whoever may not read the project', async () => {
    expect((await kiln.api('GET', `${baseOf()}/time_stats`, { token: w.stranger.token })).status).toBe(404);
    expect((await kiln.api('POST', `${baseOf()}/add_spent_time`, { token: w.stranger.token, body: { duration: '1h' } })).status).toBe(404);
  });
});

describe('time tracking of a confidential issue', () => {
  it('is 404 to a Guest who may not see it', async () => {
    const issue = await kiln.apiAs(w.developer, 'POST', `/projects/${w.project.id}/issues`, { title: 'Secret', confidential: true });
    expect((await kiln.api('GET', `/projects/${w.project.id}/issues/${issue.iid}/time_stats`, { token: w.guest.token })).status).toBe(404);
  });
});

describe.each([
  ['Issue Hook', () => issueBase, 'issue'],
  ['Merge Request Hook', () => mrBase, 'merge_request'],
])('the %s of a time tracking change', (event, baseOf, kind) => {
  const deliveries = () => received.filter((r) => r.headers['x-gitlab-event'] === event && r.body.object_kind === kind);

  it('carries time_estimate, total_time_spent and time_change in changes and object_attributes', async () => {
    const base = baseOf();
    await kiln.api('POST', `${base}/reset_spent_time`, { token: w.developer.token });
    await kiln.api('POST', `${base}/reset_time_estimate`, { token: w.developer.token });
    await kiln.worker.drain();
    received.length = 0;
    expect((await kiln.api('POST', `${base}/time_estimate`, { token: w.developer.token, body: { duration: '3h' } })).status).toBe(200);
    await kiln.worker.drain();
    const [estimated] = deliveries();
    expect(estimated.body.object_attributes).toMatchObject({ action: 'update', time_estimate: 10800, human_time_estimate: '3h', total_time_spent: 0, time_change: 0 });
    expect(estimated.body.changes.time_estimate).toEqual({ previous: 0, current: 10800 });

    received.length = 0;
    expect((await kiln.api('POST', `${base}/add_spent_time`, { token: w.developer.token, body: { duration: '1h30m' } })).status).toBe(201);
    expect((await kiln.api('POST', `${base}/add_spent_time`, { token: w.developer.token, body: { duration: '-30m' } })).status).toBe(201);
    await kiln.worker.drain();
    const [added, subtracted] = deliveries();
    expect(added.body.changes).toMatchObject({ total_time_spent: { previous: 0, current: 5400 }, time_change: { previous: 0, current: 5400 } });
    expect(added.body.object_attributes).toMatchObject({ time_change: 5400, human_time_change: '1h 30m' });
    expect(subtracted.body.changes).toMatchObject({ total_time_spent: { previous: 5400, current: 3600 }, time_change: { previous: 0, current: -1800 } });
    expect(subtracted.body.object_attributes).toMatchObject({ time_estimate: 10800, total_time_spent: 3600, human_total_time_spent: '1h', time_change: -1800, human_time_change: '-30m' });
    expect(subtracted.body.changes.time_estimate).toBeUndefined();
  });
});

describe('deleting what has time spent', () => {
  it('deletes an issue and a merge request with their timelogs', async () => {
    const issue = await kiln.apiAs(w.developer, 'POST', `/projects/${w.project.id}/issues`, { title: 'Short-lived' });
    await branchWith(kiln, w.developer, w.project.id, 'short-lived', [create('short.txt', 'one\n')]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'short-lived', title: 'Short-lived' });
    for (const base of [`/projects/${w.project.id}/issues/${issue.iid}`, `/projects/${w.project.id}/merge_requests/${mr.iid}`]) {
      expect((await kiln.api('POST', `${base}/add_spent_time`, { token: w.developer.token, body: { duration: '1h' } })).status).toBe(201);
      expect((await kiln.api('DELETE', base, { token: w.owner.token })).status).toBe(204);
      expect((await kiln.api('GET', `${base}/time_stats`, { token: w.owner.token })).status).toBe(404);
    }
  });
});
