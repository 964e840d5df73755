// The group issues page (issue 36, GitLab's /groups/:group/-/issues): the issues of every project in
// the group and its subgroups that the reader may read (private projects for their members,
// confidential issues for reporters and their authors), with the project list's filters and sort kept
// in tab and page links, titles escaped, and a page read in the same number of statements whatever
// projects its rows come from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { countStatements, type StatementCounter } from '../helpers/statement-counter.js';

let kiln: TestKiln;
let owner: TestUser;
let member: TestUser;
let reporter: TestUser;
let outsider: TestUser;
let open: any;
let hidden: any;
let statements: StatementCounter;
const XSS = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  statements = countStatements();
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  member = await kiln.createUser('member');
  reporter = await kiln.createUser('reporter');
  outsider = await kiln.createUser('outsider');
  const acme = await kiln.createGroup(owner, 'acme', { visibility: 'public' });
  const sub = await kiln.createGroup(owner, 'sub', { parent_id: acme.id, visibility: 'public' });
  open = await kiln.createProject(owner, 'open', { namespace_id: acme.id, visibility: 'public' });
  hidden = await kiln.createProject(owner, 'hidden', { namespace_id: sub.id, visibility: 'private' });
  await kiln.addMember(owner, 'projects', hidden.id, member, 30);
  await kiln.addMember(owner, 'projects', open.id, reporter, 20);
  await kiln.apiAs(owner, 'POST', `/projects/${open.id}/labels`, { name: 'bug', color: '#dd2b0e' });
  await kiln.apiAs(owner, 'POST', `/projects/${open.id}/issues`, { title: `Open bug ${XSS}`, labels: 'bug' });
  await kiln.apiAs(owner, 'POST', `/projects/${open.id}/issues`, { title: 'Open secret', confidential: true });
  await kiln.apiAs(member, 'POST', `/projects/${hidden.id}/issues`, { title: 'Hidden work' });
  const closed = await kiln.apiAs(owner, 'POST', `/projects/${open.id}/issues`, { title: 'Old closed one' });
  await kiln.apiAs(owner, 'PUT', `/projects/${open.id}/issues/${closed.iid}`, { state_event: 'close' });
}, 120_000);
afterAll(async () => {
  statements.restore();
  await kiln?.close();
});

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

function titlesOf(body: string): string[] {
  return [...body.matchAll(/<tr data-iid="\d+"><td><a href="[^"]+">([^<]*)<\/a>/g)].map((match) => match[1]!);
}

describe('GET /groups/:group/-/issues', () => {
  it('shows anonymous visitors the public projects\' non-confidential issues, linked with their project\'s reference', async () => {
    const page = await kiln.request('GET', '/groups/acme/-/issues');
    expect(page.statusCode).toBe(200);
    expect(titlesOf(page.body)).toEqual([`Open bug &lt;img src=x onerror=alert(1)&gt;`]);
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toMatch(/href="\/acme\/open\/-\/issues\/1">Open bug [^<]*<\/a> <span class="muted issue-ref">acme\/open#1<\/span>/);
    expect(page.body).toMatch(/data-tab="opened" aria-current="page">Open <span class="badge">1<\/span>/);
    expect(page.body).toContain('href="/groups/acme/-/issues" aria-current="page"');
  });

  it('adds the private subgroup project\'s issues for its member, and confidential ones for a reporter', async () => {
    expect(titlesOf((await (await signedIn(member)).get('/groups/acme/-/issues')).body).sort()).toEqual(['Hidden work', 'Open bug &lt;img src=x onerror=alert(1)&gt;']);
    expect(titlesOf((await (await signedIn(reporter)).get('/groups/acme/-/issues')).body).sort()).toEqual(['Open bug &lt;img src=x onerror=alert(1)&gt;', 'Open secret']);
    expect(titlesOf((await (await signedIn(outsider)).get('/groups/acme/-/issues')).body)).toEqual(['Open bug &lt;img src=x onerror=alert(1)&gt;']);
    // The subgroup's own page lists only what lies under it.
    expect(titlesOf((await (await signedIn(member)).get('/groups/acme/sub/-/issues')).body)).toEqual(['Hidden work']);
  });

  it('filters, sorts and pages as the project list does, keeping the filters in the links', async () => {
    const web = await signedIn(member);
    expect(titlesOf((await web.get('/groups/acme/-/issues?label_name=bug')).body)).toEqual(['Open bug &lt;img src=x onerror=alert(1)&gt;']);
    expect(titlesOf((await web.get('/groups/acme/-/issues?author_username=member')).body)).toEqual(['Hidden work']);
    expect(titlesOf((await web.get('/groups/acme/-/issues?search=hidden')).body)).toEqual(['Hidden work']);
    expect(titlesOf((await web.get('/groups/acme/-/issues?state=closed')).body)).toEqual(['Old closed one']);
    const sorted = await web.get('/groups/acme/-/issues?sort=title_asc&label_name=bug');
    expect(sorted.body).toContain('<option value="title_asc" selected>');
    expect(sorted.body).toContain('href="/groups/acme/-/issues?state=closed&amp;label_name=bug&amp;sort=title_asc"');
    expect(titlesOf((await web.get('/groups/acme/-/issues?sort=title_desc')).body)).toEqual(['Open bug &lt;img src=x onerror=alert(1)&gt;', 'Hidden work']);
    expect((await web.get('/groups/acme/-/issues?label_name=nothing')).body).toContain('No issues match these filters.');
    expect((await web.get('/groups/acme/-/issues?state=%3Cx%3E&page=-4&sort=bogus&milestone_title=%3Cb%3E')).statusCode).toBe(200);
  });

  it('answers 404 for a private group to those who cannot see it', async () => {
    await kiln.createGroup(owner, 'secretive', { visibility: 'private' });
    const anonymous = await kiln.request('GET', '/groups/secretive/-/issues');
    expect(anonymous.statusCode).not.toBe(200);
    expect(anonymous.body).not.toContain('id="issues"');
    expect((await (await signedIn(outsider)).get('/groups/secretive/-/issues')).statusCode).toBe(404);
    expect((await (await signedIn(owner)).get('/groups/secretive/-/issues')).statusCode).toBe(200);
  });

  it('reads a page of rows from many projects in as many statements as a page of one row', async () => {
    const many = await kiln.createGroup(owner, 'many', { visibility: 'public' });
    const web = await signedIn(owner);
    const first = await kiln.createProject(owner, 'p0', { namespace_id: many.id, visibility: 'public' });
    await kiln.apiAs(owner, 'POST', `/projects/${first.id}/issues`, { title: 'Only one' });
    await web.get('/groups/many/-/issues');
    statements.count = 0;
    expect(titlesOf((await web.get('/groups/many/-/issues')).body)).toHaveLength(1);
    const one = statements.count;
    for (let i = 1; i < 8; i += 1) {
      const project = await kiln.createProject(owner, `p${i}`, { namespace_id: many.id, visibility: 'public' });
      await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: `Issue ${i}` });
      await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: `Another ${i}` });
    }
    await web.get('/groups/many/-/issues');
    statements.count = 0;
    expect(titlesOf((await web.get('/groups/many/-/issues')).body)).toHaveLength(15);
    expect(statements.count).toBe(one);
  }, 120_000);
});
