// What reading merge requests costs in statements (issue 34; bench/scenarios/merge-requests.ts reads
// the same targets): a page of GET /projects/:id/merge_requests and of GET /merge_requests reads every
// association of its merge requests once for the page (present.ts), so the count does not grow with
// the page: one merge request or twenty, each with labels, a milestone, assignees, reviewers, a
// comment, an approval, a reaction and a commit status. Counted at the drivers (test/helpers/
// statement-counter.ts); on PostgreSQL each statement is a round trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { countStatements, type StatementCounter } from '../helpers/statement-counter.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

const MERGE_REQUESTS = 20;

let kiln: TestKiln;
let w: RepositoryWorld;
let statements: StatementCounter;
/** One merge request in each of MERGE_REQUESTS other projects of the developer's. */
let spread: TestUser;

/** Everything an entity shows, on one merge request of a project. */
async function enrich(projectId: number, mr: { iid: number; sha: string }, milestoneId: number, people: { maintainer: TestUser; reporter: TestUser; developer: TestUser }): Promise<void> {
  const base = `/projects/${projectId}/merge_requests/${mr.iid}`;
  const calls = [
    kiln.api('PUT', base, { token: people.developer.token, body: { milestone_id: milestoneId } }),
    kiln.api('POST', `${base}/notes`, { token: people.reporter.token, body: { body: 'Looks right' } }),
    kiln.api('POST', `${base}/approve`, { token: people.maintainer.token }),
    kiln.api('POST', `${base}/award_emoji`, { token: people.reporter.token, body: { name: 'thumbsup' } }),
    kiln.api('POST', `/projects/${projectId}/statuses/${mr.sha}`, { token: people.developer.token, body: { state: 'success', name: 'ci' } }),
  ];
  for (const call of calls) expect((await call).status).toBeLessThan(300);
}

beforeAll(async () => {
  // Before the app starts.
  statements = countStatements();
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  const milestone = await kiln.api('POST', `/projects/${w.project.id}/milestones`, { token: w.maintainer.token, body: { title: 'v1' } });
  // The iids follow the order of creation: the project's merge requests one after another.
  for (let i = 0; i < MERGE_REQUESTS; i += 1) {
    await branchWith(kiln, w.developer, w.project.id, `topic-${i}`, [create(`topic-${i}.txt`, `${i}\n`)]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: `topic-${i}`, title: `Topic ${i}`, labels: 'backend,ui', assignee_ids: [w.maintainer.id], reviewer_ids: [w.owner.id, w.maintainer.id] });
    await enrich(w.project.id, mr, milestone.body.id, w);
  }
  spread = await kiln.createUser('spread-author');
  // The other projects four at a time (on PostgreSQL the requests mostly wait on round trips).
  for (let batch = 0; batch < MERGE_REQUESTS; batch += 4) {
    await Promise.all(Array.from({ length: Math.min(4, MERGE_REQUESTS - batch) }, async (_, offset) => {
      const i = batch + offset;
      const project = await kiln.createProject(spread, `spread-${i}`);
      await seedRepository(kiln, spread, project.id);
      await branchWith(kiln, spread, project.id, 'topic', [create('topic.txt', `${i}\n`)]);
      await openMergeRequest(kiln, spread, project.id, { source_branch: 'topic', title: `Spread ${i}`, labels: 'backend', assignee_ids: [spread.id] });
    }));
  }
  await kiln.worker.drain();
}, 300_000);

afterAll(async () => {
  statements.restore();
  await kiln?.close();
});

/** Statements run while answering the second of two identical requests (the first may write the token's last use); SHOW_COUNTS=1 prints them. */
async function statementsOf(path: string, token: string): Promise<{ count: number; length: number }> {
  await kiln.api('GET', path, { token });
  statements.count = 0;
  if (process.env.SHOW_COUNTS) statements.log = [];
  const { status, body } = await kiln.api('GET', path, { token });
  expect(status).toBe(200);
  if (process.env.SHOW_COUNTS) console.log('COUNT', path, statements.count, statements.log?.map((text) => text.replace(/\s+/g, ' ').slice(0, 120)).join('\n'));
  return { count: statements.count, length: Array.isArray(body) ? body.length : 1 };
}

describe('statements per merge request read', () => {
  it('GET /projects/:id/merge_requests: the same count for one merge request a page as for twenty', async () => {
    const one = await statementsOf(`/projects/${w.project.id}/merge_requests?per_page=1`, w.reporter.token);
    const twenty = await statementsOf(`/projects/${w.project.id}/merge_requests?per_page=${MERGE_REQUESTS}`, w.reporter.token);
    expect(one.length).toBe(1);
    expect(twenty.length).toBe(MERGE_REQUESTS);
    expect(twenty.count).toBe(one.count);
    // The token with the project, the count, the page, then for the page: projects, people,
    // labels, diff versions with counts, unresolved threads, head pipelines, milestones.
    expect(twenty.count).toBeLessThanOrEqual(11);
  });

  it('the entities are whole: labels, milestone, people and counts of every merge request', async () => {
    const { body } = await kiln.api('GET', `/projects/${w.project.id}/merge_requests?per_page=${MERGE_REQUESTS}`, { token: w.reporter.token });
    expect(body).toHaveLength(MERGE_REQUESTS);
    for (const mr of body) {
      expect(mr).toMatchObject({
        labels: ['backend', 'ui'], milestone: { title: 'v1' }, author: { username: w.developer.username },
        assignees: [{ username: w.maintainer.username }], reviewers: [{ username: w.owner.username }, { username: w.maintainer.username }],
        user_notes_count: 1, upvotes: 1, downvotes: 0,
      });
      expect(mr.sha).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it('GET /merge_requests with twenty merge requests of twenty projects: the same count as with one', async () => {
    const one = await statementsOf('/merge_requests?scope=created_by_me&per_page=1', spread.token);
    const twenty = await statementsOf(`/merge_requests?scope=created_by_me&per_page=${MERGE_REQUESTS}`, spread.token);
    expect(one.length).toBe(1);
    expect(twenty.length).toBe(MERGE_REQUESTS);
    expect(new Set((await kiln.api('GET', `/merge_requests?per_page=${MERGE_REQUESTS}`, { token: spread.token })).body.map((mr: { project_id: number }) => mr.project_id)).size).toBe(MERGE_REQUESTS);
    expect(twenty.count).toBe(one.count);
    expect(twenty.count).toBeLessThanOrEqual(10);
  });

  it('GET /projects/:id/merge_requests/:iid is a fixed handful of statements', async () => {
    const { count } = await statementsOf(`/projects/${w.project.id}/merge_requests/1`, w.reporter.token);
    const { body } = await kiln.api('GET', `/projects/${w.project.id}/merge_requests/1`, { token: w.reporter.token });
    expect(body).toMatchObject({ head_pipeline: { status: 'success' }, subscribed: true, user: { can_merge: false } });
    // The merge request, the page's reads for one, whether the reader may merge (access, protected
    // branch rules and their levels) and whether the reader is subscribed (row, comments: the reporter commented).
    expect(count).toBeLessThanOrEqual(15);
  });
});
