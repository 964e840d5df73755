// What reading issues costs in statements (docs/performance.md, issue 40): one issue is the token with
// its project and the issue with its links and the caller's subscription row (issues/issue-
// presentation-queries.ts); a page of issues the token, the page and
// the links (a full page of a search reads the count of its matches with the page), and no
// `subscribed` (GitLab's listings leave it out). The caller's comments are one statement more for one
// issue, only when it has comments and neither its subscription row nor its author, assignees or
// description decide `subscribed` (notifications/subscribed-issues-queries.ts). Neither grows with assignees, labels, comments or subscriptions. Counted at the drivers (test/helpers/statement-counter.ts) for a request
// that finds nothing in the row cache; on PostgreSQL each statement is a round trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { countStatements, invalidateLookups, type StatementCounter } from '../helpers/statement-counter.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let reader: TestUser;
let projectId = 0;
let busyIid = 0;
let confidentialIid = 0;
let commentedIid = 0;
const plainIids: number[] = [];
let statements: StatementCounter;

beforeAll(async () => {
  // Before the app starts.
  statements = countStatements();
  kiln = await testKiln();
  owner = await kiln.createUser('stmt-issue-owner');
  reader = await kiln.createUser('stmt-issue-reader');
  const project = await kiln.createProject(owner, 'stmt-issues', { visibility: 'private' });
  projectId = project.id;
  await kiln.addMember(owner, 'projects', projectId, reader, ACCESS.guest);
  const base = `/projects/${projectId}/issues`;
  const busy = await kiln.apiAs(owner, 'POST', base, { title: 'Busy', labels: 'a,b', assignee_ids: [owner.id, reader.id], description: 'Ask @stmt-issue-reader' });
  busyIid = busy.iid;
  await kiln.apiAs(reader, 'POST', `${base}/${busy.iid}/notes`, { body: 'Mine' });
  await kiln.apiAs(owner, 'POST', `${base}/${busy.iid}/notes`, { body: 'cc @stmt-issue-reader' });
  await kiln.apiAs(reader, 'POST', `${base}/${busy.iid}/award_emoji`, { name: 'thumbsup' });
  // An explicit unsubscription wins over being an assignee, a commenter and mentioned.
  await kiln.apiAs(reader, 'POST', `${base}/${busy.iid}/unsubscribe`);
  for (let i = 0; i < 4; i += 1) plainIids.push((await kiln.apiAs(owner, 'POST', base, { title: `Plain ${i}` })).iid);
  confidentialIid = (await kiln.apiAs(owner, 'POST', base, { title: 'Secret', confidential: true })).iid;
  commentedIid = (await kiln.apiAs(owner, 'POST', base, { title: 'Commented' })).iid;
  await kiln.apiAs(reader, 'POST', `${base}/${commentedIid}/notes`, { body: 'Seen it' });
}, 120_000);
afterAll(async () => {
  statements.restore();
  await kiln.close();
});

async function statementsOf(user: TestUser, path: string): Promise<{ count: number; status: number; body: any }> {
  await kiln.api('GET', path, { token: user.token });
  await invalidateLookups(kiln, reader.id, projectId);
  statements.count = 0;
  statements.log = [];
  const { status, body } = await kiln.api('GET', path, { token: user.token });
  return { count: statements.count, status, body };
}

describe('statements per issue read', () => {
  it('one issue with assignees, labels, comments and an unsubscription is two statements', async () => {
    const read = await statementsOf(reader, `/projects/${projectId}/issues/${busyIid}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ title: 'Busy', user_notes_count: 2, upvotes: 1, subscribed: false, labels: ['a', 'b'] });
    expect(read.body.assignees.map((user: any) => user.id)).toEqual([owner.id, reader.id].sort((a, b) => a - b));
    expect(read.count, statements.log?.join('\n---\n')).toBe(2);
  });

  it('an issue the caller takes part in only by a comment reads the comments: three statements', async () => {
    const read = await statementsOf(reader, `/projects/${projectId}/issues/${commentedIid}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ title: 'Commented', user_notes_count: 1, subscribed: true });
    expect(read.count, statements.log?.join('\n---\n')).toBe(3);
  });

  it('an issue the caller may not read is 404 after the same two statements', async () => {
    const read = await statementsOf(reader, `/projects/${projectId}/issues/${confidentialIid}`);
    expect(read.status).toBe(404);
    expect(read.count, statements.log?.join('\n---\n')).toBe(2);
  });

  it('a page of issues is three statements', async () => {
    const read = await statementsOf(reader, `/projects/${projectId}/issues?${[busyIid, ...plainIids].map((iid) => `iids[]=${iid}`).join('&')}`);
    expect(read.status).toBe(200);
    expect(read.body.map((issue: any) => issue.title)).toEqual(['Plain 3', 'Plain 2', 'Plain 1', 'Plain 0', 'Busy']);
    expect(read.body.find((issue: any) => issue.iid === busyIid)).toMatchObject({ user_notes_count: 2, upvotes: 1, assignees: [expect.anything(), expect.anything()] });
    expect(read.count, statements.log?.join('\n---\n')).toBe(3);
  });

  it('a page with an issue the caller only commented is three statements too: a listing has no subscribed to decide', async () => {
    const read = await statementsOf(reader, `/projects/${projectId}/issues`);
    expect(read.status).toBe(200);
    expect(read.body.map((issue: any) => issue.title)).toEqual(['Commented', 'Plain 3', 'Plain 2', 'Plain 1', 'Plain 0', 'Busy']);
    expect(read.body.every((issue: any) => !('subscribed' in issue))).toBe(true);
    expect(read.count, statements.log?.join('\n---\n')).toBe(3);
  });

  it('a full page of a search reads its page and the count of its matches in one statement', async () => {
    const read = await statementsOf(reader, `/projects/${projectId}/issues?search=plain&per_page=2`);
    expect(read.status).toBe(200);
    expect(read.body.map((issue: any) => issue.title)).toEqual(['Plain 3', 'Plain 2']);
    // The token, the page with its count and the links; on SQLite the trigram index first.
    expect(read.count, statements.log?.join('\n---\n')).toBe(kiln.deps.dialect === 'sqlite' ? 4 : 3);
  });
});
