// The merge request lists' filters beyond state, labels, iids, draft, source branch and search (those
// are in merge-requests.test.ts), issue 34: reviewer and assignee by id, username and None/Any,
// milestone and its negation, target branch, search restricted with `in`, created/updated
// before/after, not[author_username], not[reviewer_id], my_reaction_emoji and its negation, and the
// global list's assigned_to_me and reviews_for_me scopes. On SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let a: any;
let b: any;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/repository/branches`, { branch: 'release', ref: 'main' });
  const milestone = await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/milestones`, { title: 'v1' });
  await branchWith(kiln, w.developer, w.project.id, 'speed', [create('speed.txt', 's\n')]);
  await branchWith(kiln, w.maintainer, w.project.id, 'docs', [create('docs.txt', 'd\n')]);
  a = await openMergeRequest(kiln, w.developer, w.project.id, {
    source_branch: 'speed', title: 'Speed up checkout', description: 'cache the cart', assignee_ids: [w.maintainer.id], reviewer_ids: [w.reporter.id], milestone_id: milestone.id,
  });
  b = await openMergeRequest(kiln, w.maintainer, w.project.id, { source_branch: 'docs', target_branch: 'release', title: 'Docs', description: 'explains checkout', reviewer_ids: [w.developer.id] });
  await kiln.apiAs(w.reporter, 'POST', `/projects/${w.project.id}/merge_requests/${a.iid}/award_emoji`, { name: 'thumbsup' });
}, 90_000);

afterAll(async () => {
  await kiln?.close();
});

const list = async (query: Record<string, string | number>, user = () => w.reporter) => {
  const response = await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: user().token, query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.map((mr: any) => mr.iid);
};

describe('GET /projects/:id/merge_requests filters', () => {
  it('by reviewer and assignee: id, username, None and Any', async () => {
    expect(await list({ reviewer_id: w.reporter.id })).toEqual([a.iid]);
    expect(await list({ reviewer_username: w.developer.username })).toEqual([b.iid]);
    expect(await list({ reviewer_id: 'None' })).toEqual([]);
    expect(await list({ reviewer_id: 'Any' })).toEqual([b.iid, a.iid]);
    expect(await list({ assignee_id: w.maintainer.id })).toEqual([a.iid]);
    expect(await list({ assignee_id: 'none' })).toEqual([b.iid]);
    expect(await list({ 'assignee_username[]': w.maintainer.username })).toEqual([a.iid]);
    expect(await list({ 'not[reviewer_id]': w.reporter.id })).toEqual([b.iid]);
    expect(await list({ 'not[author_username]': w.developer.username })).toEqual([b.iid]);
  });

  it('by milestone (and None, and its negation) and target branch', async () => {
    expect(await list({ milestone: 'v1' })).toEqual([a.iid]);
    expect(await list({ milestone: 'None' })).toEqual([b.iid]);
    expect(await list({ 'not[milestone]': 'v1' })).toEqual([b.iid]);
    expect(await list({ target_branch: 'release' })).toEqual([b.iid]);
  });

  it('by search in title, description or both', async () => {
    expect(await list({ search: 'checkout' })).toEqual([b.iid, a.iid]);
    expect(await list({ search: 'checkout', in: 'title' })).toEqual([a.iid]);
    expect(await list({ search: 'checkout', in: 'description' })).toEqual([b.iid]);
    expect((await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: w.reporter.token, query: { search: 'x', in: 'body' } })).status).toBe(400);
  });

  it('by creation and update time, refusing a time that is none', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const past = '2000-01-01T00:00:00Z';
    expect(await list({ created_after: future })).toEqual([]);
    expect(await list({ created_before: future, updated_after: past })).toEqual([b.iid, a.iid]);
    expect(await list({ updated_before: past })).toEqual([]);
    expect(await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: w.reporter.token, query: { created_after: 'yesterday-ish' } })).toMatchObject({ status: 400, body: { error: 'created_after is invalid' } });
  });

  it("by the caller's reaction and its negation; reviewer id and username together are refused", async () => {
    expect(await list({ my_reaction_emoji: 'thumbsup' })).toEqual([a.iid]);
    expect(await list({ 'not[my_reaction_emoji]': 'thumbsup' })).toEqual([b.iid]);
    expect(await list({ my_reaction_emoji: 'thumbsup' }, () => w.developer)).toEqual([]);
    expect((await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: w.reporter.token, query: { reviewer_id: w.reporter.id, reviewer_username: w.reporter.username } })).status).toBe(400);
  });
});

describe('GET /merge_requests scopes', () => {
  it('assigned_to_me and reviews_for_me list what waits for the caller', async () => {
    const mine = async (user: { token: string }, scope: string) => (await kiln.api('GET', '/merge_requests', { token: user.token, query: { scope } })).body.map((mr: any) => mr.iid);
    expect(await mine(w.maintainer, 'assigned_to_me')).toEqual([a.iid]);
    expect(await mine(w.reporter, 'reviews_for_me')).toEqual([a.iid]);
    expect(await mine(w.developer, 'reviews-for-me')).toEqual([b.iid]);
    expect(await mine(w.developer, 'created_by_me')).toEqual([a.iid]);
  });
});
